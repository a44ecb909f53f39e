import type { IncomingMessage } from 'node:http';

import type { Duplex } from 'node:stream';
import type { RealtimeSession } from '@parley/core';
import { brand, optionKeys } from '@parley/core/internal';
import { WebSocketServer } from 'ws';
import { TwilioMediaStreamError } from './errors.js';
import type { MediaStreamStart } from './media-stream-messages.js';
import { CALL_OPTION_LIST, checkCallOptions, TwilioCall, type TwilioCallOptions } from './twilio-call.js';

/** Options of {@link TwilioMediaStreamServer}. */
export interface TwilioMediaStreamServerOptions<TContext> extends TwilioCallOptions {
  /** The path of the `<Stream url>` (e.g. `/media`); upgrades to other paths are left to other handlers. */
  path: string;
  /**
   * Makes the session of a call once Twilio has said which call it is (`start.customParameters` carry what your
   * TwiML put there). Create it with `playbackTracker: new ReportedPlaybackTracker()` and G.711 µ-law audio
   * (`config: { inputAudioFormat: 'g711_ulaw', outputAudioFormat: 'g711_ulaw' }`); the call connects and closes it.
   */
  session: (
    start: MediaStreamStart,
    request: IncomingMessage,
  ) => RealtimeSession<TContext> | Promise<RealtimeSession<TContext>>;
  /**
   * Decides whether an upgrade request may open a stream (e.g. check its `X-Twilio-Signature` with a
   * {@link TwilioWebhookVerifier}, or a token in the URL). Refused requests get HTTP 403. Default: every request.
   */
  authorize?: (request: IncomingMessage) => boolean | Promise<boolean>;
  /** Each new call, before its `start` (subscribe to its events here). */
  onCall?: (call: TwilioCall<TContext>, request: IncomingMessage) => void;
}

const OPTIONS = optionKeys<TwilioMediaStreamServerOptions<unknown>>('TwilioMediaStreamServerOptions', {
  ...CALL_OPTION_LIST,
  path: true,
  session: true,
  authorize: true,
  onCall: true,
});

/**
 * Twilio Media Streams on any Node HTTP server (plain `http`, Express, Fastify): pass {@link handleUpgrade} to the
 * server's `upgrade` event. Each stream becomes a {@link TwilioCall} with its own session.
 *
 * ```ts
 * const streams = new TwilioMediaStreamServer({ path: '/media', session: () => new RealtimeSession(agent, phone) });
 * server.on('upgrade', streams.handleUpgrade);
 * ```
 */
export class TwilioMediaStreamServer<TContext = unknown> {
  static {
    brand(TwilioMediaStreamServer, 'twilio.TwilioMediaStreamServer');
  }

  readonly #options: TwilioMediaStreamServerOptions<TContext>;
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  readonly #calls = new Set<TwilioCall<TContext>>();
  #closed = false;

  constructor(options: TwilioMediaStreamServerOptions<TContext>) {
    OPTIONS.check(options ?? {});
    checkCallOptions(options);
    if (typeof options?.path !== 'string' || !options.path.startsWith('/')) {
      throw new TwilioMediaStreamError(
        'invalid_option',
        "TwilioMediaStreamServer needs a path starting with '/', e.g. path: '/media'.",
      );
    }
    if (typeof options.session !== 'function') {
      throw new TwilioMediaStreamError(
        'invalid_option',
        'TwilioMediaStreamServer needs session: (start) => a RealtimeSession for the call.',
      );
    }
    this.#options = options;
  }

  /** The calls in progress. */
  get calls(): ReadonlySet<TwilioCall<TContext>> {
    return this.#calls;
  }

  /**
   * The `upgrade` listener: takes the upgrades to `path` (returns `true`) and leaves others alone (returns `false`,
   * for another handler on the same server).
   */
  readonly handleUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== this.#options.path) return false;
    if (this.#closed) {
      refuse(socket, 503, 'Service Unavailable');
      return true;
    }
    void this.#accept(request, socket, head);
    return true;
  };

  /** Ends every call (sessions closed) and stops taking new ones. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#calls].map((call) => call.hangUp()));
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  async #accept(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    try {
      if (this.#options.authorize && !(await this.#options.authorize(request))) {
        refuse(socket, 403, 'Forbidden');
        return;
      }
    } catch {
      refuse(socket, 403, 'Forbidden');
      return;
    }
    if (this.#closed) {
      refuse(socket, 503, 'Service Unavailable');
      return;
    }
    this.#wss.handleUpgrade(request, socket, head, (ws) => {
      const { session, onCall, path: _path, authorize: _authorize, ...callOptions } = this.#options;
      const call = new TwilioCall<TContext>(ws, (start) => session(start, request), callOptions);
      this.#calls.add(call);
      void call.ended.then(() => this.#calls.delete(call));
      onCall?.(call, request);
    });
  }
}

function refuse(socket: Duplex, status: number, text: string): void {
  if (socket.writable)
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  else socket.destroy();
}
