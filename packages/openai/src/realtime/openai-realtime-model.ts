import {
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeCapabilities,
  type RealtimeConnectOptions,
  type RealtimeModel,
} from '@parley/core';
import { detectWebSocketStyle, openSocket, type WebSocketStyle } from '@parley/transport';
import { obtainApiKey } from '../shared/api-key.js';
import { OPENAI_REALTIME_CAPABILITIES } from './capabilities.js';
import { OpenAIRealtimeConnection } from './connection.js';
import { OpenAIRealtimeError } from './errors.js';
import { assertBrowserKey, browserHeaderError, handshakeCredentials } from './handshake.js';
import {
  type OpenAIRealtimeModelOptions,
  type ResolvedRealtimeOptions,
  resolveRealtimeOptions,
} from './options.js';

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
  /** The seam's model id: the model named in the URL. */
  get modelId(): string {
    return this.model;
  }
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
    return openSocket({
      signal,
      secret: () =>
        obtainApiKey(
          this.#options.apiKey,
          (message, cause) => new OpenAIRealtimeError('realtime_api_key_unavailable', message, { cause }),
        ),
      handshake: (key) => ({
        url: this.#options.url,
        ...handshakeCredentials(this.#style, key, this.#options.headers),
      }),
      WebSocket: this.#options.WebSocket,
      style: this.#style,
      refused: (cause) =>
        new OpenAIRealtimeError(
          'realtime_handshake_failed',
          'The WebSocket constructor refused the connection request; check the url and the WebSocket option.',
          { cause },
        ),
      wrap: (socket, apiKey) =>
        OpenAIRealtimeConnection.open(
          socket,
          {
            clock: this.#options.clock,
            connectTimeoutMs: this.#options.connectTimeoutMs,
            closeTimeoutMs: this.#options.closeTimeoutMs,
            keepalive: this.#options.keepalive,
            baseSession: this.#options.sessionConfig,
            secrets: [apiKey],
            sessionType: this.#options.target === 'transcription' ? 'transcription' : 'realtime',
            // A sideband: the call's audio is on its WebRTC peer or phone line, which the service plays.
            servicePlayback: this.#options.target === 'call',
            ...(options.rawEvents && { rawEvents: true }),
          },
          options.config ?? {},
          signal,
        ),
    });
  }
}
