import {
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeCapabilities,
  type RealtimeConnectOptions,
  type RealtimeModel,
} from '@parley/core';
import { detectWebSocketStyle, openSocket, type WebSocketStyle } from '@parley/transport';
import { handshakeCredentials } from '../realtime/handshake.js';
import { obtainApiKey } from '../shared/api-key.js';
import { liveCapabilities } from './capabilities.js';
import { OpenAILiveError } from './errors.js';
import { OpenAILiveConnection } from './live-connection.js';
import { type OpenAILiveModelOptions, type ResolvedLiveOptions, resolveLiveOptions } from './options.js';

/** The URL to open: the primary endpoint, or a running session's sideband. */
function attachUrl(options: ResolvedLiveOptions): string {
  const id = options.sessionId;
  return id === undefined
    ? options.url
    : `${options.url.replace(/\/+$/, '')}/${encodeURIComponent(id)}/attach`;
}

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
  /** The seam's model id: the model named in the URL. */
  get modelId(): string {
    return this.model;
  }
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
    const { headers } = this.#options;
    return openSocket({
      signal,
      secret: () =>
        obtainApiKey(
          this.#options.apiKey,
          (message, cause) => new OpenAILiveError('live_api_key_unavailable', message, { cause }),
        ),
      handshake: (key) => ({
        url: attachUrl(this.#options),
        ...(this.#options.authHeader === 'api-key'
          ? { headers: { ...headers, 'api-key': key }, protocols: [] }
          : handshakeCredentials(this.#style, key, headers)),
      }),
      WebSocket: this.#options.WebSocket,
      style: this.#style,
      refused: (cause) =>
        new OpenAILiveError(
          'live_handshake_failed',
          'The WebSocket constructor refused the connection request; check the url and the WebSocket option.',
          { cause },
        ),
      wrap: (socket, apiKey) =>
        OpenAILiveConnection.open(socket, this.#options, apiKey, {
          config: options.config ?? {},
          signal,
          rawEvents: options.rawEvents,
        }),
    });
  }
}
