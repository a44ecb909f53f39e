import { type Clock, ConnectionClosedError, type RealtimeEvent } from '@parley/core';
import { errorText } from '@parley/core/internal';
import { closeWait } from './close-wait.js';
import { ConnectPhase } from './connect-phase.js';
import { type ResolvedKeepalive, startKeepalive } from './keepalive.js';
import {
  frameText,
  listenToSocket,
  NodeBuffer,
  type NodeTextFrame,
  reportListenerError,
  upgradeStatus,
} from './socket-plumbing.js';
import type { SocketEventMap, WebSocketLike } from './socket-types.js';

/** Where a connection is: opening its session, open, closing (by either side), closed. */
export type SocketPhase = 'connecting' | 'open' | 'closing' | 'closed';

/** Why `connect()` failed when the socket closed (or failed) before the session was ready: the protocol names it. */
export interface ConnectFailure {
  /** The upgrade succeeded (the socket opened) before it closed. */
  opened: boolean;
  /** The HTTP status of a refused upgrade, where the socket reported it; else NaN. */
  status: number;
  closeCode: number;
  /** Redacted. */
  closeReason: string;
  /** The socket's error message, redacted; `undefined` when it reported none. */
  socketError: string | undefined;
  /**
   * The socket's error object before it opened, as the socket reported it (not redacted: the codec redacts what it
   * keeps as a `cause`); `undefined` when it reported none.
   */
  socketErrorCause: unknown;
}

/**
 * Where a codec hands the events it decodes: `deliver` is the subscriber itself while exactly one listens and nothing
 * is held back (so a delta reaches it with no call in between), else the skeleton's `emit` (backlog, several
 * listeners). A listener that throws is reported as an `EventTarget` reports it, and the socket keeps being read.
 */
export interface EventSink {
  readonly deliver: (event: RealtimeEvent) => void;
}

/**
 * The codec side of a connection: what the skeleton hands to the protocol (frames, the socket opening, the end) and
 * what it asks of it (the errors that name a failed connect).
 */
export interface SocketCodec {
  /** The socket opened (the upgrade succeeded): a protocol that starts its session by a message sends it here. */
  opened?(): void;
  /** One text frame from the peer; a hot event it decodes (a delta) may go to `sink`, any event to `emit`. */
  readonly frame: (text: string, sink: EventSink) => void;
  /**
   * One text frame as a `ws` socket hands it over (UTF-8 bytes, not decoded yet); without it the skeleton decodes
   * the bytes and calls `frame`. Called unbound (an arrow property, or a bound function).
   */
  readonly frameBytes?: ((bytes: NodeTextFrame, sink: EventSink) => void) | undefined;
  /**
   * The connection stopped (lost, or its socket closed): end what is half-done (a segment, a turn). `peerClose` is the
   * close the peer made while the connection was open (no close under way from either side), with its code: a codec
   * whose protocol documents a close code as a failure reports it here (before `connection_status: disconnected`).
   */
  stopped?(peerClose?: { code: number; reason: string }): void;
  /** The error `connect()` rejects with when the socket closed or failed before the session was ready. */
  connectFailed(failure: ConnectFailure): Error;
  /** The error `connect()` rejects with when the session was not ready within `timeoutMs`. */
  connectTimedOut(timeoutMs: number): Error;
}

/** What the skeleton needs besides its socket and codec. */
export interface SocketConnectionSettings {
  clock: Clock;
  connectTimeoutMs: number;
  closeTimeoutMs: number;
  /** Pings while open; a ping unanswered within its timeout loses the connection. `false`/absent: no pings. */
  keepalive?: ResolvedKeepalive | undefined;
  /** Emit every frame as a `raw_event` (parsed JSON, else the text) ahead of what the codec makes of it. */
  rawEvents?: boolean | undefined;
  /** The service's name in messages (`the ${name} connection is closed`). */
  name: string;
  /** Scrubs secrets from any text the connection reports (close reasons, socket errors, raw events). */
  redact(text: string): string;
}

/** `WebSocket.OPEN`: the only ready state in which a frame is written rather than dropped. */
const SOCKET_OPEN = 1;

/**
 * The protocol-neutral half of a realtime connection over a WebSocket, written once for every adapter: the phase
 * machine, the socket listeners, the event listeners with their backlog, transmit-or-lose, the connect phase
 * (deadline, abort), keepalive, and the bounded close. The protocol's codec turns frames into seam events
 * (`emit`) and seam commands into frames (`transmit`), and says when its session is ready (`ready`).
 *
 * Every path out (a failed connect, `close()`, a close by the peer, a lost socket) removes the socket listeners and
 * clears the timers. An unexpected end emits `connection_status: disconnected` with the redacted reason; a `close()`
 * by the owner emits nothing.
 */
export class SocketConnection {
  readonly #socket: WebSocketLike;
  readonly #settings: SocketConnectionSettings;
  readonly #codec: SocketCodec;
  readonly #connect: ConnectPhase;
  readonly #unlisten: () => void;
  #stopKeepalive: () => void = () => {};
  #phase: SocketPhase = 'connecting';
  #listeners: ((event: RealtimeEvent) => void)[] = [];
  /** Events emitted before anyone subscribed; delivered to the first subscriber. */
  #backlog: RealtimeEvent[] | undefined = [];
  /** What the codec hands its events to (see {@link EventSink}); kept current by `onEvent` and its unsubscribe. */
  readonly #sink: { deliver: (event: RealtimeEvent) => void } = { deliver: (event) => this.emit(event) };
  #closed: Promise<void> | undefined;
  #resolveClosed: (() => void) | undefined;
  /** The owner's `close()` (or a failed connect) started the close: its end is not reported. */
  #closedByOwner = false;
  #opened = false;
  #socketError: string | undefined;
  #socketErrorCause: unknown;

  constructor(socket: WebSocketLike, settings: SocketConnectionSettings, codec: SocketCodec) {
    this.#socket = socket;
    this.#settings = settings;
    this.#codec = codec;
    this.#connect = new ConnectPhase(settings.clock);
    this.#unlisten = listenToSocket(socket, {
      open: this.#onOpen,
      message: this.#onMessage,
      nodeMessage: this.#onNodeMessage,
      error: this.#onError,
      close: this.#onClose,
    });
  }

  get phase(): SocketPhase {
    return this.#phase;
  }

  /** `open` until closed by either side. */
  get status(): 'open' | 'closed' {
    return this.#phase === 'open' ? 'open' : 'closed';
  }

  // --- events ---

  onEvent(listener: (event: RealtimeEvent) => void): () => void {
    // `concat` sizes the new array exactly (a spread grows it to spare capacity, kept per connection).
    this.#listeners = this.#listeners.concat(listener);
    const backlog = this.#backlog;
    if (backlog !== undefined) {
      this.#backlog = undefined;
      if (backlog.length > 0) {
        // Deliver after onEvent returns, before any later event (those come from socket tasks).
        this.#backlog = backlog;
        queueMicrotask(() => {
          const pending = this.#backlog ?? [];
          this.#backlog = undefined;
          this.#aim();
          for (const event of pending) this.emit(event);
        });
      }
    }
    this.#aim();
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
      this.#aim();
    };
  }

  /** Points the codec's sink at the one listener where that is safe, else at `emit`. */
  #aim(): void {
    const only = this.#backlog === undefined && this.#listeners.length === 1 ? this.#listeners[0] : undefined;
    this.#sink.deliver = only ?? this.emit;
  }

  /** Hands `event` to every listener (held back until the first one subscribes); an arrow, so it serves as a sink. */
  readonly emit = (event: RealtimeEvent): void => {
    if (this.#backlog !== undefined) {
      this.#backlog.push(event);
      return;
    }
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        reportListenerError(error);
      }
    }
  };

  // --- writing ---

  /** Throws {@link ConnectionClosedError} for `command` unless the connection is open. */
  assertOpen(command: string): void {
    if (this.#phase !== 'open') {
      throw new ConnectionClosedError(
        `Cannot send "${command}": the ${this.#settings.name} connection is closed.`,
      );
    }
  }

  /**
   * Hands one frame to the socket. A socket that is no longer open would drop it silently (both `ws` and the WHATWG
   * WebSocket do), and one whose write throws is broken: the frame is not written, the caller gets a
   * {@link ConnectionClosedError}, and an open connection ends here (reported right after the caller's `send`).
   */
  transmit(what: string, frame: string): void {
    const state = this.#socket.readyState;
    let failure: string;
    if (state === SOCKET_OPEN) {
      try {
        this.#socket.send(frame);
        return;
      } catch (error) {
        failure = `writing "${what}" to the socket failed: ${this.#settings.redact(errorText(error))}`;
      }
    } else {
      failure = `the socket stopped being open (readyState ${state}) before "${what}" was written`;
    }
    this.lost(failure, false);
    throw new ConnectionClosedError(
      `Cannot send "${what}" on the ${this.#settings.name} connection: ${failure}; it was not sent.`,
    );
  }

  /**
   * The socket stopped being usable while the connection was open (an error, a write that failed, a close that
   * started without the close event, a keepalive without answer): the connection is closed at once and the socket
   * released without waiting for a closing handshake that may never complete. `connection_status: disconnected` is
   * emitted now, or, from inside `send`, right after it returns (a listener must not run inside the caller's `send`).
   */
  lost(reason: string, now: boolean): void {
    if (this.#phase !== 'open') return;
    this.#phase = 'closed';
    this.#abandonSocket();
    this.#codec.stopped?.();
    const event: RealtimeEvent = {
      type: 'connection_status',
      status: 'disconnected',
      reason: this.#settings.redact(reason),
    };
    if (now) this.emit(event);
    else queueMicrotask(() => this.emit(event));
  }

  // --- connect phase ---

  /** Resolves once the codec calls {@link ready}; rejects (socket released) on a deadline, an abort or a failure. */
  waitUntilReady(signal: AbortSignal | undefined): Promise<void> {
    const { connectTimeoutMs } = this.#settings;
    return this.#connect.wait({
      timeoutMs: connectTimeoutMs,
      timeoutError: () => this.#codec.connectTimedOut(connectTimeoutMs),
      signal,
      onStop: (error) => this.rejectConnect(error),
    });
  }

  /** The protocol's session is ready: the connection opens, pings start, `connected` is emitted, `connect()` resolves. */
  ready(): void {
    const settle = this.#connect.end();
    this.#phase = 'open';
    const { keepalive, clock } = this.#settings;
    if (keepalive) {
      this.#stopKeepalive = startKeepalive(this.#socket, clock, keepalive, (reason) =>
        this.lost(reason, true),
      );
    }
    this.emit({ type: 'connection_status', status: 'connected' });
    settle?.resolve();
  }

  /** Fails `connect()` while the socket is still up (a refusal by the service): closes it first, then rejects. */
  rejectConnect(error: Error): void {
    const settle = this.#connect.end();
    if (!settle) return;
    this.#phase = 'closing';
    this.#closedByOwner = true;
    void this.#startClose().then(() => settle.reject(error));
    this.#closeSocket(1000, 'connect failed');
  }

  /** Fails `connect()` at once, releasing the socket without a closing handshake (it can no longer be written). */
  abandonConnect(error: Error): void {
    this.#phase = 'closed';
    this.#abandonSocket();
    this.#connect.end()?.reject(error);
  }

  // --- closing ---

  /**
   * Closes the connection (idempotent). With `goodbye` (a protocol that ends its session by a message, such as
   * GPT-Live's `session.close`), an open connection writes it and the codec calls {@link closeSocket} on the peer's
   * answer; otherwise the socket's closing handshake starts now. Resolves on the close event, or after
   * `closeTimeoutMs` at the latest (the socket is then released without its handshake).
   */
  close(goodbye?: { what: string; frame: string }): Promise<void> {
    if (this.#closed) return this.#closed;
    if (this.#phase === 'closed') {
      this.#closed = Promise.resolve();
      return this.#closed;
    }
    const wasOpen = this.#phase === 'open';
    this.#phase = 'closing';
    this.#closedByOwner = true;
    const closed = this.#startClose();
    let sent = false;
    if (goodbye !== undefined && wasOpen) {
      try {
        this.transmit(goodbye.what, goodbye.frame);
        sent = true;
      } catch {
        // The socket can take no goodbye: close it without one.
      }
    }
    if (!sent) this.closeSocket();
    return closed;
  }

  /** Starts the socket's closing handshake (the codec's answer to the peer's acknowledgement of a goodbye). */
  closeSocket(): void {
    this.#closeSocket(1000, 'OK');
  }

  /**
   * The peer ended the session by a message (its close event follows): the connection is closing, pings stop, and
   * the close is reported as `connection_status: disconnected`.
   */
  endedByPeer(): void {
    if (this.#phase === 'closed') return;
    // While connecting the phase stays: the close event then fails `connect()`.
    if (this.#phase === 'open') this.#phase = 'closing';
    this.#stopKeepalive();
    this.#closeSocket(1000, 'OK');
  }

  /** The bounded wait for the close event; at the deadline the socket is released without its handshake. */
  #startClose(): Promise<void> {
    this.#stopKeepalive();
    const wait = closeWait(this.#settings.clock, this.#settings.closeTimeoutMs, () => {
      this.#phase = 'closed';
      this.#detach();
      (this.#socket as { terminate?: () => void }).terminate?.();
    });
    this.#resolveClosed = wait.closed;
    this.#closed ??= wait.done;
    return wait.done;
  }

  #closeSocket(code: number, reason: string): void {
    try {
      this.#socket.close(code, reason);
    } catch {
      // Closing a socket that is still connecting may throw in some implementations; the close event follows.
    }
  }

  /** Releases a socket that is no longer usable without waiting for a closing handshake. */
  #abandonSocket(): void {
    this.#detach();
    const socket = this.#socket as WebSocketLike & { terminate?: () => void };
    try {
      if (socket.terminate) socket.terminate();
      else socket.close();
    } catch {
      // Already closing: nothing more to release.
    }
  }

  #detach(): void {
    this.#stopKeepalive();
    this.#unlisten();
  }

  // --- socket listeners (arrow properties so the same function can be removed) ---

  readonly #onOpen = (): void => {
    this.#opened = true;
    this.#codec.opened?.();
  };

  readonly #onMessage = (event: SocketEventMap['message']): void => {
    const text = frameText(event.data);
    if (text === undefined) return;
    if (this.#settings.rawEvents) this.#emitRaw(text);
    try {
      this.#codec.frame(text, this.#sink);
    } catch (error) {
      // The one listener, reached through the sink, threw: reported, and the socket is still read.
      reportListenerError(error);
    }
  };

  /** A `ws` socket's frame: a text frame as its bytes (a `Buffer`), else what the WHATWG interface would carry. */
  readonly #onNodeMessage = (data: unknown, isBinary?: boolean): void => {
    const { frameBytes } = this.#codec;
    if (isBinary === false && frameBytes && NodeBuffer !== undefined && data instanceof NodeBuffer) {
      if (!this.#settings.rawEvents) {
        try {
          frameBytes(data as NodeTextFrame, this.#sink);
        } catch (error) {
          reportListenerError(error);
        }
        return;
      }
    }
    this.#onMessage({ data });
  };

  readonly #onError = (event: SocketEventMap['error']): void => {
    const message = event.message ?? (event.error instanceof Error ? event.error.message : undefined);
    if (message) this.#socketError = this.#settings.redact(message);
    if (event.error !== undefined && !this.#opened) this.#socketErrorCause = event.error;
    if (this.#phase === 'open') {
      // An error on an open socket (invalid UTF-8, a protocol error) ends it; its close event may take a closing
      // handshake the peer never answers, so the connection is over now.
      this.lost(`socket error: ${this.#socketError ?? 'unknown'}`, true);
      return;
    }
    if (this.#phase === 'connecting' && !this.#opened) {
      // A failed handshake: `ws` follows with a close event, undici (Node's global WebSocket) does not.
      this.#phase = 'closed';
      this.#detach();
      try {
        this.#socket.close();
      } catch {
        // Some implementations throw when closing a socket that never opened.
      }
      this.#connect.end()?.reject(this.#connectFailure(1006, ''));
    }
  };

  readonly #onClose = (event: SocketEventMap['close']): void => {
    const previous = this.#phase;
    this.#phase = 'closed';
    this.#detach();
    this.#resolveClosed?.();
    if (previous === 'connecting') {
      this.#connect.end()?.reject(this.#connectFailure(event.code, event.reason));
      return;
    }
    if (previous !== 'open' && previous !== 'closing') return;
    this.#codec.stopped?.(
      previous === 'open' ? { code: event.code, reason: this.#settings.redact(event.reason) } : undefined,
    );
    if (previous === 'closing' && this.#closedByOwner) return;
    this.emit({
      type: 'connection_status',
      status: 'disconnected',
      reason: this.#settings.redact(
        event.reason || this.#socketError || `The ${this.#settings.name} connection was closed.`,
      ),
    });
  };

  #connectFailure(code: number, reason: string): Error {
    return this.#codec.connectFailed({
      opened: this.#opened,
      status: upgradeStatus(this.#socketError),
      closeCode: code,
      closeReason: this.#settings.redact(reason),
      socketError: this.#socketError,
      socketErrorCause: this.#socketErrorCause,
    });
  }

  /** The frame as a `raw_event` carries it: the parsed JSON of its redacted text, else that text. */
  #emitRaw(text: string): void {
    const scrubbed = this.#settings.redact(text);
    let event: unknown;
    try {
      event = JSON.parse(scrubbed);
    } catch {
      event = scrubbed;
    }
    this.emit({ type: 'raw_event', event });
  }
}
