import { detectWebSocketStyle, loadWebSocketConstructor } from '../open-socket.js';
import type { SocketEventMap, WebSocketConstructor, WebSocketLike, WebSocketStyle } from '../socket-types.js';

const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

/**
 * The WebSocket a simulator harness hands the adapter under test (pass both fields to the model's options): the
 * runtime's default WebSocket, wrapped so that the harness can fault the socket from the client's side.
 */
export interface HarnessTransport {
  WebSocket: WebSocketConstructor;
  webSocketStyle: WebSocketStyle;
}

type Listener = (event: never) => void;

/**
 * Opens the runtime's default WebSocket and keeps track of every socket it made, so that a harness can make the
 * latest one stop being open without a word, or fail a write.
 */
export class TransportFaults {
  readonly transport: HarnessTransport;
  readonly #sockets: FaultableSocket[] = [];
  readonly #failingWrites: ((frame: string) => boolean)[] = [];

  private constructor(base: WebSocketConstructor, style: WebSocketStyle) {
    const faults = this;
    class HarnessWebSocket extends FaultableSocket {
      constructor(...args: unknown[]) {
        super(new (base as new (...a: unknown[]) => WebSocketLike)(...args), (frame) =>
          faults.#failsWrite(frame),
        );
        faults.#sockets.push(this);
      }
    }
    this.transport = { WebSocket: HarnessWebSocket as WebSocketConstructor, webSocketStyle: style };
  }

  /**
   * Faults over `WebSocket` (for example a `ws` subclass a test tracks its sockets with), else over the runtime's
   * default WebSocket (`globalThis.WebSocket`, else the `ws` package).
   */
  static async create(WebSocket?: WebSocketConstructor): Promise<TransportFaults> {
    return new TransportFaults(await loadWebSocketConstructor(WebSocket), detectWebSocketStyle(WebSocket));
  }

  /** Whether the adapter opened a socket through the transport (only then can the harness fault it). */
  get reachable(): boolean {
    return this.#sockets.length > 0;
  }

  /** The latest socket stops being open without a close, an error or any further event; writes are dropped. */
  stopSilently(): void {
    this.#latest('stop it silently').stop();
  }

  /** The next write of a frame `matches` accepts throws (a broken socket), and the socket stops being open. */
  failNextWrite(matches: (frame: string) => boolean): void {
    this.#latest('fail a write');
    this.#failingWrites.push(matches);
  }

  /**
   * A harness's `connectionStopsSilently`: the latest socket stops without a word. Present once the adapter opened a
   * socket through the transport.
   */
  get stopSilentlyHook(): (() => Promise<void>) | undefined {
    if (!this.reachable) return undefined;
    return async () => this.stopSilently();
  }

  /**
   * A harness's `failNextWrite(commandType)`: the next frame `commandTypeOf` reads as a command of that type fails to
   * write. Present once the adapter opened a socket through the transport.
   */
  failNextWriteHook<T extends string>(
    commandTypeOf: (frame: string) => string | undefined,
  ): ((commandType: T) => Promise<void>) | undefined {
    if (!this.reachable) return undefined;
    return async (commandType) => this.failNextWrite((frame) => commandTypeOf(frame) === commandType);
  }

  #failsWrite(frame: string): boolean {
    const index = this.#failingWrites.findIndex((matches) => matches(frame));
    if (index < 0) return false;
    this.#failingWrites.splice(index, 1);
    return true;
  }

  #latest(what: string): FaultableSocket {
    const socket = this.#sockets.at(-1);
    if (!socket) {
      throw new Error(
        `The harness cannot ${what}: the adapter opened no socket through the harness's transport. ` +
          "Pass the transport's WebSocket and webSocketStyle to the model in createModel.",
      );
    }
    return socket;
  }
}

/**
 * A WebSocket around the real one. Stopped, it reports CLOSING until it is really closed, delivers no event (until
 * the client closes it itself) and drops every frame written to it, as a socket whose closing handshake is never
 * acknowledged does. A write that fails throws and leaves the socket stopped: a broken socket stays broken.
 */
class FaultableSocket implements WebSocketLike {
  readonly #inner: WebSocketLike;
  readonly #failsWrite: (frame: string) => boolean;
  readonly #wrappers = new Map<string, Map<Listener, Listener>>();
  #stopped = false;
  #closedByClient = false;

  constructor(inner: WebSocketLike, failsWrite: (frame: string) => boolean) {
    this.#inner = inner;
    this.#failsWrite = failsWrite;
  }

  stop(): void {
    this.#stopped = true;
  }

  get readyState(): number {
    const state = this.#inner.readyState;
    return this.#stopped && state !== CLOSED ? CLOSING : state;
  }

  get binaryType(): string {
    return this.#inner.binaryType;
  }

  set binaryType(value: string) {
    this.#inner.binaryType = value;
  }

  send(data: string): void {
    if (this.#failsWrite(data)) {
      this.#stopped = true;
      throw new Error('write EPIPE (a write failure the conformance harness injected)');
    }
    if (this.readyState !== OPEN) return;
    this.#inner.send(data);
  }

  close(code?: number, reason?: string): void {
    this.#closedByClient = true;
    this.#inner.close(code, reason);
  }

  terminate(): void {
    this.#closedByClient = true;
    const inner = this.#inner as WebSocketLike & { terminate?: () => void };
    if (inner.terminate) inner.terminate();
    else inner.close();
  }

  addEventListener<K extends keyof SocketEventMap>(
    type: K,
    listener: (event: SocketEventMap[K]) => void,
  ): void {
    const wrapper = (event: SocketEventMap[K]) => {
      if (this.#stopped && !this.#closedByClient) return;
      listener(event);
    };
    let wrappers = this.#wrappers.get(type);
    if (!wrappers) {
      wrappers = new Map();
      this.#wrappers.set(type, wrappers);
    }
    wrappers.set(listener as Listener, wrapper as Listener);
    this.#inner.addEventListener(type, wrapper);
  }

  removeEventListener<K extends keyof SocketEventMap>(
    type: K,
    listener: (event: SocketEventMap[K]) => void,
  ): void {
    const wrappers = this.#wrappers.get(type);
    const wrapper = wrappers?.get(listener as Listener);
    if (!wrapper) return;
    wrappers?.delete(listener as Listener);
    this.#inner.removeEventListener(type, wrapper as (event: SocketEventMap[K]) => void);
  }
}
