import type { SocketEventMap, WebSocketLike } from './socket-types.js';

/** What every realtime connection does with its socket besides speaking its protocol. */

/** A connection's socket listeners, one per event. */
export type SocketListeners = { [K in keyof SocketEventMap]: (event: SocketEventMap[K]) => void } & {
  /**
   * Takes the frames instead of `message` where the socket is the `ws` package's (a Node event emitter): its
   * `on('message', (data, isBinary))` hands over each frame's bytes without building a WHATWG `MessageEvent` and
   * without decoding a text frame into a string first.
   */
  nodeMessage?: (data: unknown, isBinary?: boolean) => void;
};

/** The Node `EventEmitter` side of a `ws` package socket. */
interface NodeEmitterSocket {
  on(type: 'message', listener: (data: unknown, isBinary?: boolean) => void): unknown;
  removeListener(type: 'message', listener: (data: unknown, isBinary?: boolean) => void): unknown;
}

/** The socket as a Node event emitter when it is a `ws` package socket (`on`, `terminate`, `ping`), else `undefined`. */
function nodeEmitterOf(socket: WebSocketLike): NodeEmitterSocket | undefined {
  const candidate = socket as Partial<NodeEmitterSocket> & { terminate?: unknown; ping?: unknown };
  return typeof candidate.on === 'function' &&
    typeof candidate.removeListener === 'function' &&
    typeof candidate.terminate === 'function' &&
    typeof candidate.ping === 'function'
    ? (candidate as NodeEmitterSocket)
    : undefined;
}

/** Adds the listeners to `socket` and returns the one function that removes them all. */
export function listenToSocket(socket: WebSocketLike, listeners: SocketListeners): () => void {
  const { nodeMessage } = listeners;
  const emitter = nodeMessage === undefined ? undefined : nodeEmitterOf(socket);
  socket.addEventListener('open', listeners.open);
  if (emitter !== undefined && nodeMessage !== undefined) emitter.on('message', nodeMessage);
  else socket.addEventListener('message', listeners.message);
  socket.addEventListener('error', listeners.error);
  socket.addEventListener('close', listeners.close);
  return () => {
    socket.removeEventListener('open', listeners.open);
    if (emitter !== undefined && nodeMessage !== undefined) emitter.removeListener('message', nodeMessage);
    else socket.removeEventListener('message', listeners.message);
    socket.removeEventListener('error', listeners.error);
    socket.removeEventListener('close', listeners.close);
  };
}

/** A text frame as a `ws` socket hands it over: a Node `Buffer` of UTF-8 bytes. */
export interface NodeTextFrame extends Uint8Array {
  toString(encoding?: 'utf8' | 'latin1'): string;
}

/** Node's `Buffer` class; `undefined` outside Node. */
export const NodeBuffer = (
  globalThis as {
    Buffer?: (abstract new (...args: never[]) => NodeTextFrame) & { isBuffer(value: unknown): boolean };
  }
).Buffer;

/** `true` for a Node `Buffer`. */
export function isNodeBuffer(data: unknown): data is NodeTextFrame {
  return NodeBuffer?.isBuffer(data) === true;
}

const textDecoder = new TextDecoder();

/** The text of a frame (a string, or UTF-8 bytes); `undefined` for anything else. */
export function frameText(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return textDecoder.decode(data as ArrayBuffer);
  return undefined;
}

const UNEXPECTED_RESPONSE = /Unexpected server response: (\d{3})/;

/** The HTTP status a refused upgrade reported in the socket's error (`ws`: `Unexpected server response: 401`), else NaN. */
export function upgradeStatus(socketError: string | undefined): number {
  return Number(UNEXPECTED_RESPONSE.exec(socketError ?? '')?.[1] ?? Number.NaN);
}

/**
 * Reports an exception thrown by an event listener the way a DOM `EventTarget` does: asynchronously (`reportError`
 * where it exists, else an uncaught exception), while the other listeners and the following frames are still served.
 * Thrown into the socket's own message handler, it would stall the socket (`ws` stops reading).
 */
export function reportListenerError(error: unknown): void {
  const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
  if (typeof report === 'function') {
    report(error);
    return;
  }
  queueMicrotask(() => {
    throw error;
  });
}
