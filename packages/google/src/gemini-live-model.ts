import {
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeCapabilities,
  type RealtimeConnectOptions,
  type RealtimeModel,
  type RealtimeSessionConfig,
} from '@parley/core';
import { detectWebSocketStyle, openSocket, type WebSocketStyle } from '@parley/transport';
import { geminiCapabilities } from './capabilities.js';
import { GeminiLiveError } from './errors.js';
import { handshakeFor, obtainSecret } from './handshake.js';
import { GeminiLiveConnection } from './live-connection.js';
import { type GeminiLiveModelOptions, type ResolvedGeminiOptions, resolveGeminiOptions } from './options.js';
import { toSetup } from './setup.js';
import { SocketLeg } from './socket-leg.js';

/**
 * Google Gemini Live (`BidiGenerateContent`) as a Parley {@link RealtimeModel}, on the Gemini API (an API key, or an
 * ephemeral token in browsers) or on Vertex AI. See docs/providers/google.md.
 *
 * ```ts
 * const model = new GeminiLiveModel({ apiKey: process.env.GEMINI_API_KEY });
 * const session = new RealtimeSession(agent, { model });
 * ```
 *
 * Options are checked here, before any socket. `connect()` sends `setup` and resolves on `setupComplete`; a refused
 * setup (a close before it) rejects with {@link GeminiLiveError}.
 */
export class GeminiLiveModel implements RealtimeModel {
  readonly specificationVersion = REALTIME_SPECIFICATION_VERSION;
  readonly provider = 'gemini';
  readonly capabilities: RealtimeCapabilities;
  readonly model: string;
  readonly #options: ResolvedGeminiOptions;
  readonly #style: WebSocketStyle;

  constructor(options: GeminiLiveModelOptions = {}) {
    this.#options = resolveGeminiOptions(options);
    this.model = this.#options.model;
    this.capabilities = geminiCapabilities(this.#options);
    this.#style = this.#options.webSocketStyle ?? detectWebSocketStyle(this.#options.WebSocket);
  }

  /**
   * Opens a session; with `resumeToken` (a resumption handle) resumes the one it names. A handle the service refuses
   * (expired, unknown) starts a new session instead (`resumed: false`); what would fail without one rejects.
   */
  async connect(options: RealtimeConnectOptions): Promise<GeminiLiveConnection> {
    const config = options.config ?? {};
    const handle = this.#options.sessionResumption ? options.resumeToken : undefined;
    let leg: SocketLeg | undefined;
    if (handle !== undefined) {
      leg = await this.#openLeg(toSetup(this.#options, config, handle), options.signal).catch((error) => {
        if (error instanceof GeminiLiveError && error.code === 'gemini_setup_refused') return undefined;
        throw error;
      });
    }
    const resumed = leg !== undefined;
    leg ??= await this.#openLeg(toSetup(this.#options, config, undefined), options.signal);
    const openLeg = (next: RealtimeSessionConfig, token: string | undefined) =>
      this.#openLeg(toSetup(this.#options, next, token), undefined);
    return new GeminiLiveConnection(this.#options, leg, config, openLeg, options.rawEvents === true, resumed);
  }

  async #openLeg(setup: ReturnType<typeof toSetup>, signal: AbortSignal | undefined): Promise<SocketLeg> {
    const leg = await openSocket({
      signal,
      secret: () => obtainSecret(this.#options),
      handshake: (secret) => handshakeFor(this.#options, this.#style, secret),
      WebSocket: this.#options.WebSocket,
      style: this.#style,
      refused: (cause) =>
        new GeminiLiveError(
          'gemini_handshake_failed',
          'The WebSocket constructor refused the connection request; check baseUrl and the WebSocket option.',
          { cause },
        ),
      wrap: (socket, secret) => new SocketLeg(socket, this.#options.clock, [secret]),
    });
    try {
      await leg.ready(setup, this.#options.connectTimeoutMs, signal);
    } catch (error) {
      leg.release();
      throw error;
    }
    return leg;
  }
}
