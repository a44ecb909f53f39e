import {
  AbortError,
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeCapabilities,
  type RealtimeConnectOptions,
  type RealtimeModel,
} from '@parley/core';
import { assertApiKeyShape } from '../realtime/options.js';
import {
  createSocket,
  detectWebSocketStyle,
  handshakeCredentials,
  loadWebSocketConstructor,
} from '../realtime/socket.js';
import type { WebSocketStyle } from '../realtime/socket-types.js';
import { liveCapabilities } from './capabilities.js';
import { OpenAILiveError } from './errors.js';
import { OpenAILiveConnection } from './live-connection.js';
import { type OpenAILiveModelOptions, type ResolvedLiveOptions, resolveLiveOptions } from './options.js';

/**
 * OpenAI GPT-Live (`/v1/live/sessions`) as a Parley {@link RealtimeModel}: a full-duplex voice model that takes its
 * turns by itself and delegates work instead of calling tools. See docs/providers/openai-live.md.
 *
 * ```ts
 * const model = new OpenAILiveModel({ apiKey: process.env.OPENAI_API_KEY });
 * const session = new RealtimeSession(voiceAgent, { model, delegate: backendAgent });
 * ```
 *
 * `connect()` sends `session.start` (only fields the service knows: it refuses unknown ones) and resolves on
 * `session.started`; a refused start rejects with {@link OpenAILiveError}. Each connection is a new session.
 */
export class OpenAILiveModel implements RealtimeModel {
  readonly specificationVersion = REALTIME_SPECIFICATION_VERSION;
  readonly provider = 'openai-live';
  readonly capabilities: RealtimeCapabilities;
  readonly model: string;
  readonly #options: ResolvedLiveOptions;
  readonly #style: WebSocketStyle;

  constructor(options: OpenAILiveModelOptions = {}) {
    this.#options = resolveLiveOptions(options);
    this.model = this.#options.model;
    this.capabilities = liveCapabilities(this.#options.delegation);
    this.#style = this.#options.webSocketStyle ?? detectWebSocketStyle(this.#options.WebSocket);
    if (this.#style === 'browser') this.#style = 'headers-init';
  }

  async connect(options: RealtimeConnectOptions): Promise<OpenAILiveConnection> {
    const { signal } = options;
    if (signal?.aborted) throw new AbortError('connect() was aborted.', { cause: signal.reason });
    const apiKey = await this.#resolveKey();
    if (signal?.aborted) throw new AbortError('connect() was aborted.', { cause: signal.reason });
    const { headers } = this.#options;
    const credentials =
      this.#options.authHeader === 'api-key'
        ? { headers: { ...headers, 'api-key': apiKey }, protocols: [] }
        : handshakeCredentials(this.#style, apiKey, headers);
    const WebSocketCtor = await loadWebSocketConstructor(this.#options.WebSocket);
    if (signal?.aborted) throw new AbortError('connect() was aborted.', { cause: signal.reason });
    const socket = createSocket(WebSocketCtor, this.#style, this.#options.url.toString(), credentials);
    return OpenAILiveConnection.open(socket, this.#options, apiKey, options.config ?? {}, signal);
  }

  async #resolveKey(): Promise<string> {
    const source = this.#options.apiKey;
    if (typeof source === 'string') return source;
    let key: unknown;
    try {
      key = await source();
    } catch (error) {
      throw new OpenAILiveError(
        'live_api_key_unavailable',
        'apiKeyProvider threw instead of returning a key; see `cause`.',
        {
          cause: error,
        },
      );
    }
    try {
      assertApiKeyShape(key, 'The key returned by apiKeyProvider');
    } catch (error) {
      throw new OpenAILiveError('live_api_key_unavailable', (error as Error).message);
    }
    return key;
  }
}
