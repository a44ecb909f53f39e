import {
  AbortError,
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeCapabilities,
  type RealtimeConnectOptions,
  type RealtimeModel,
} from '@parley/core';
import { OPENAI_REALTIME_CAPABILITIES } from './capabilities.js';
import { OpenAIRealtimeConnection } from './connection.js';
import { OpenAIRealtimeError } from './errors.js';
import {
  assertApiKeyShape,
  type OpenAIRealtimeModelOptions,
  type ResolvedRealtimeOptions,
  resolveRealtimeOptions,
} from './options.js';
import {
  assertBrowserKey,
  browserHeaderError,
  createSocket,
  detectWebSocketStyle,
  handshakeCredentials,
  loadWebSocketConstructor,
} from './socket.js';
import type { WebSocketStyle } from './socket-types.js';

/**
 * The OpenAI Realtime API (GA protocol) over a WebSocket, as a Parley {@link RealtimeModel}.
 *
 * ```ts
 * const model = new OpenAIRealtimeModel({ apiKey: process.env.OPENAI_API_KEY });
 * const connection = await model.connect({ config: { instructions: 'Be brief.', voice: 'marin' } });
 * ```
 *
 * `connect()` resolves once the service has confirmed the initial configuration (`session.updated`), so an invalid
 * configuration rejects `connect()` instead of surfacing later. The key is sent in the `Authorization` header (or,
 * in a browser, as a subprotocol, and only if it is an ephemeral `ek_` key); it never appears in a URL, an error or
 * a log line.
 */
export class OpenAIRealtimeModel implements RealtimeModel {
  readonly specificationVersion = REALTIME_SPECIFICATION_VERSION;
  readonly provider = 'openai';
  readonly capabilities: RealtimeCapabilities = OPENAI_REALTIME_CAPABILITIES;
  /** The model named in the URL. */
  readonly model: string;
  readonly #options: ResolvedRealtimeOptions;
  readonly #style: WebSocketStyle;

  constructor(options: OpenAIRealtimeModelOptions = {}) {
    this.#options = resolveRealtimeOptions(options);
    this.model = this.#options.model;
    this.#style = this.#options.webSocketStyle ?? detectWebSocketStyle(this.#options.WebSocket);
    if (this.#style === 'browser') {
      if (typeof this.#options.apiKey === 'string') assertBrowserKey(this.#options.apiKey);
      for (const name of Object.keys(this.#options.headers)) {
        const lower = name.toLowerCase();
        if (lower !== 'openai-organization' && lower !== 'openai-project') throw browserHeaderError(name);
      }
    }
  }

  /** How the WebSocket will be opened (see {@link WebSocketStyle}). */
  get webSocketStyle(): WebSocketStyle {
    return this.#style;
  }

  async connect(options: RealtimeConnectOptions): Promise<OpenAIRealtimeConnection> {
    const { signal } = options;
    const config = options.config ?? {};
    if (signal?.aborted) throw new AbortError('connect() was aborted.', { cause: signal.reason });
    const apiKey = await this.#resolveKey();
    if (signal?.aborted) throw new AbortError('connect() was aborted.', { cause: signal.reason });
    const credentials = handshakeCredentials(this.#style, apiKey, this.#options.headers);
    const WebSocketCtor = await loadWebSocketConstructor(this.#options.WebSocket);
    if (signal?.aborted) throw new AbortError('connect() was aborted.', { cause: signal.reason });
    let socket: ReturnType<typeof createSocket>;
    try {
      socket = createSocket(WebSocketCtor, this.#style, this.#options.url.toString(), credentials);
    } catch (error) {
      throw new OpenAIRealtimeError(
        'realtime_handshake_failed',
        'The WebSocket constructor refused the connection request; check the url and the WebSocket option.',
        { cause: error },
      );
    }
    return OpenAIRealtimeConnection.open(
      socket,
      {
        clock: this.#options.clock,
        connectTimeoutMs: this.#options.connectTimeoutMs,
        closeTimeoutMs: this.#options.closeTimeoutMs,
        baseSession: this.#options.sessionConfig,
        secrets: [apiKey],
        sessionType: this.#options.target === 'transcription' ? 'transcription' : 'realtime',
        ...(options.rawEvents && { rawEvents: true }),
      },
      config,
      signal,
    );
  }

  async #resolveKey(): Promise<string> {
    const source = this.#options.apiKey;
    if (typeof source === 'string') return source;
    let key: unknown;
    try {
      key = await source();
    } catch (error) {
      throw new OpenAIRealtimeError(
        'realtime_api_key_unavailable',
        'apiKeyProvider threw instead of returning a key; see `cause`.',
        { cause: error },
      );
    }
    try {
      assertApiKeyShape(key, 'The key returned by apiKeyProvider');
    } catch (error) {
      throw new OpenAIRealtimeError('realtime_api_key_unavailable', (error as Error).message);
    }
    return key;
  }
}
