import type { Clock } from '@parley/core';
import {
  ConnectPhase,
  frameText,
  listenToSocket,
  upgradeStatus,
  type WebSocketLike,
} from '@parley/transport';
import { GeminiLiveError } from './errors.js';
import { audioFrame } from './wire/audio-frame.js';
import type { GeminiServerMessage, GeminiSetup } from './wire/live-wire.js';

/** What a leg hands its owner once adopted. */
export interface LegHandlers {
  message(message: GeminiServerMessage, text: string): void;
  /** The socket closed (not by {@link SocketLeg.release}). */
  closed(code: number, reason: string): void;
  /** The socket reported an error while adopted. */
  failed(reason: string): void;
}

/** `WebSocket.OPEN`. */
export const SOCKET_OPEN = 1;

/**
 * One WebSocket of a Gemini Live session, from the upgrade through `setup` to `setupComplete`, then handed to its
 * owner ({@link adopt}). A session may run over several legs in turn (a resumption after `goAway` opens the next one
 * while the current one still serves). Until adopted, frames after `setupComplete` are kept; a close before it
 * rejects {@link ready} with a typed error.
 */
export class SocketLeg {
  readonly socket: WebSocketLike;
  readonly #phase: ConnectPhase;
  readonly #detach: () => void;
  readonly #secrets: readonly string[];
  #handlers: LegHandlers | undefined;
  #kept: [GeminiServerMessage, string][] = [];
  #opened = false;
  #setupComplete = false;
  #socketError: string | undefined;
  #released = false;
  sessionId: string | undefined;

  constructor(socket: WebSocketLike, clock: Clock, secrets: readonly string[]) {
    this.socket = socket;
    this.#phase = new ConnectPhase(clock);
    this.#secrets = secrets;
    this.#detach = listenToSocket(socket, {
      open: () => {
        this.#opened = true;
        this.#sendSetup?.();
      },
      message: (event) => this.#onFrame(event.data),
      error: (event) => {
        const message = event.message ?? (event.error instanceof Error ? event.error.message : undefined);
        if (message) this.#socketError = this.redact(message);
        if (this.#handlers && !this.#released)
          this.#handlers.failed(`socket error: ${this.#socketError ?? 'unknown'}`);
      },
      close: (event) => this.#onClose(event.code, event.reason),
    });
  }

  #sendSetup: (() => void) | undefined;

  /** Sends `setup` once the socket is open and resolves on `setupComplete`, bounded by `timeoutMs` and `signal`. */
  ready(setup: GeminiSetup, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    this.#sendSetup = () => {
      this.#sendSetup = undefined;
      try {
        this.socket.send(JSON.stringify({ setup }));
      } catch {
        // Its close follows.
      }
    };
    if (this.#opened) this.#sendSetup();
    return this.#phase.wait({
      timeoutMs,
      timeoutError: () =>
        new GeminiLiveError(
          'gemini_connect_timeout',
          `Gemini Live did not complete the setup within ${timeoutMs} ms; raise connectTimeoutMs or check the network.`,
        ),
      signal,
      onStop: (error) => {
        this.#phase.end()?.reject(error);
        this.release();
      },
    });
  }

  /** Hands the leg's frames to its owner from now on (frames kept since `setupComplete` first). */
  adopt(handlers: LegHandlers): void {
    this.#handlers = handlers;
    const kept = this.#kept;
    this.#kept = [];
    for (const [message, text] of kept) handlers.message(message, text);
  }

  /** Closes the socket (1000) and stops listening to it; its close is not reported. Idempotent. */
  release(code = 1000): void {
    if (this.#released) return;
    this.#released = true;
    this.#detach();
    try {
      this.socket.close(code, 'OK');
    } catch {
      (this.socket as { terminate?: () => void }).terminate?.();
    }
  }

  /** Stops listening and drops the socket at once, without a closing handshake. */
  terminate(): void {
    this.#released = true;
    this.#detach();
    const socket = this.socket as WebSocketLike & { terminate?: () => void };
    try {
      if (socket.terminate) socket.terminate();
      else socket.close();
    } catch {
      // Already closing.
    }
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) if (secret) out = out.split(secret).join('[redacted]');
    return out;
  }

  #onFrame(data: unknown): void {
    const text = frameText(data);
    if (text === undefined) return;
    let message: GeminiServerMessage;
    const audio = this.#setupComplete ? audioFrame(text) : undefined;
    if (audio) message = audio;
    else {
      try {
        const parsed: unknown = JSON.parse(text);
        if (typeof parsed !== 'object' || parsed === null) return;
        message = parsed as GeminiServerMessage;
      } catch {
        return;
      }
    }
    if (!this.#setupComplete) {
      if (!message.setupComplete) return;
      this.#setupComplete = true;
      this.sessionId = message.setupComplete.sessionId;
      this.#phase.end()?.resolve();
    }
    if (this.#handlers) this.#handlers.message(message, text);
    else this.#kept.push([message, text]);
  }

  #onClose(code: number, reason: string): void {
    this.#detach();
    if (!this.#setupComplete) {
      const settle = this.#phase.end();
      if (settle) settle.reject(this.#refusal(code, reason));
      return;
    }
    if (this.#released) return;
    this.#released = true;
    this.#handlers?.closed(code, this.redact(reason));
  }

  #refusal(code: number, reason: string): GeminiLiveError {
    const status = upgradeStatus(this.#socketError);
    if (status === 401 || status === 403) {
      return new GeminiLiveError(
        'gemini_auth_failed',
        `Gemini Live refused the credentials (HTTP ${status}). Check the API key or access token.`,
        { status },
      );
    }
    if (!this.#opened) {
      return new GeminiLiveError(
        'gemini_handshake_failed',
        `Could not open the Gemini Live WebSocket (${Number.isNaN(status) ? (this.#socketError ?? `close code ${code}`) : `HTTP ${status}`}). Check baseUrl and the network.`,
        { ...(!Number.isNaN(status) && { status }), closeCode: code },
      );
    }
    const why = this.redact(reason) || 'no reason given';
    if (code === 1007 && /api key/i.test(reason)) {
      return new GeminiLiveError(
        'gemini_auth_failed',
        `Gemini Live refused the API key (close code 1007: ${why}).`,
        {
          closeCode: code,
        },
      );
    }
    return new GeminiLiveError(
      'gemini_setup_refused',
      `Gemini Live closed the connection before setupComplete (close code ${code}: ${why}).`,
      { closeCode: code },
    );
  }
}
