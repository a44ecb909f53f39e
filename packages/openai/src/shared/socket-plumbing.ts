import type { SocketEventMap, WebSocketLike } from '../realtime/socket-types.js';

/** What both realtime connections do with their socket besides speaking their protocol. */

/** A connection's socket listeners, one per event. */
export type SocketListeners = { [K in keyof SocketEventMap]: (event: SocketEventMap[K]) => void };

/** Adds the listeners to `socket` and returns the one function that removes them all. */
export function listenToSocket(socket: WebSocketLike, listeners: SocketListeners): () => void {
  socket.addEventListener('open', listeners.open);
  socket.addEventListener('message', listeners.message);
  socket.addEventListener('error', listeners.error);
  socket.addEventListener('close', listeners.close);
  return () => {
    socket.removeEventListener('open', listeners.open);
    socket.removeEventListener('message', listeners.message);
    socket.removeEventListener('error', listeners.error);
    socket.removeEventListener('close', listeners.close);
  };
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
