import { AbortError } from '@parley/core';
import type { WebSocketConstructor, WebSocketLike, WebSocketStyle } from './socket-types.js';

interface RuntimeGlobals {
  WebSocket?: WebSocketConstructor;
  window?: unknown;
  document?: unknown;
  process?: { versions?: { node?: string; bun?: string; deno?: string } };
}

/**
 * `true` on Node itself (not Bun or Deno, which also expose `process.versions.node`). There the `ws` package (a
 * dependency) is the default even where Node 22+ has a global WebSocket: only `ws` can ping (keepalive) and hand
 * over a frame's bytes without decoding them to a string first.
 */
function isNodeRuntime(): boolean {
  const versions = (globalThis as RuntimeGlobals).process?.versions;
  return versions?.node !== undefined && versions.bun === undefined && versions.deno === undefined;
}

/** `true` when the code runs in a browser (a page or a worker), where WebSockets cannot carry headers. */
function isBrowserRuntime(): boolean {
  const g = globalThis as RuntimeGlobals;
  if (g.process?.versions?.node) return false;
  return (
    typeof g.window !== 'undefined' || typeof g.document !== 'undefined' || 'importScripts' in globalThis
  );
}

/** The `ws` package's classes have `ping` and `terminate`; WHATWG sockets have neither. */
function looksLikeWsPackage(ctor: WebSocketConstructor): boolean {
  const proto = ctor.prototype as Record<string, unknown> | undefined;
  return typeof proto?.terminate === 'function' && typeof proto?.ping === 'function';
}

/** Picks how the constructor takes headers, when the caller did not say. */
export function detectWebSocketStyle(ctor: WebSocketConstructor | undefined): WebSocketStyle {
  if (ctor === undefined) {
    const native = (globalThis as RuntimeGlobals).WebSocket;
    if (native === undefined || isNodeRuntime()) return 'ws';
    return isBrowserRuntime() ? 'browser' : 'headers-init';
  }
  if (looksLikeWsPackage(ctor)) return 'ws';
  return isBrowserRuntime() ? 'browser' : 'headers-init';
}

/**
 * The explicit constructor; else, on Node, the `ws` package; else `globalThis.WebSocket` where it exists (browsers,
 * Bun, Deno), else `ws` (loaded only when needed).
 */
export async function loadWebSocketConstructor(
  ctor: WebSocketConstructor | undefined,
): Promise<WebSocketConstructor> {
  if (ctor) return ctor;
  const native = (globalThis as RuntimeGlobals).WebSocket;
  if (native && !isNodeRuntime()) return native;
  const ws = await import('ws');
  return ws.WebSocket as unknown as WebSocketConstructor;
}

/** What goes on the upgrade request besides the URL. */
export interface HandshakeCredentials {
  headers: Record<string, string>;
  protocols: string[];
}

/** Opens the socket the way its style requires. */
export function createSocket(
  ctor: WebSocketConstructor,
  style: WebSocketStyle,
  url: string,
  credentials: HandshakeCredentials,
): WebSocketLike {
  const { headers, protocols } = credentials;
  let socket: WebSocketLike;
  if (style === 'ws') {
    const WsStyle = ctor as unknown as new (
      url: string,
      protocols: string[],
      options: { headers: Record<string, string> },
    ) => WebSocketLike;
    socket = new WsStyle(url, protocols, { headers });
  } else if (style === 'headers-init') {
    const InitStyle = ctor as unknown as new (
      url: string,
      init: { protocols: string[]; headers: Record<string, string> },
    ) => WebSocketLike;
    socket = new InitStyle(url, { protocols, headers });
  } else {
    socket = new ctor(url, protocols);
  }
  socket.binaryType = 'arraybuffer';
  return socket;
}

/** Where a connection's upgrade goes and what it carries; the key may be in any of them. */
export interface Handshake extends HandshakeCredentials {
  url: string;
}

/**
 * What every connect does before its connection exists, each step after the abort check it needs: the key for this
 * connection (`secret`), the handshake it goes into, the WebSocket constructor (loaded on first use), then the
 * socket, handed to `wrap` in the same tick (the connection must listen before the socket's first event). A
 * constructor that throws becomes `refused(cause)`.
 */
export async function openSocket<T>(options: {
  signal: AbortSignal | undefined;
  secret: () => string | Promise<string>;
  handshake: (secret: string) => Handshake;
  WebSocket: WebSocketConstructor | undefined;
  style: WebSocketStyle;
  refused: (cause: unknown) => Error;
  wrap: (socket: WebSocketLike, secret: string, handshake: Handshake) => T;
}): Promise<T> {
  const { signal } = options;
  const checkAborted = () => {
    if (signal?.aborted) throw new AbortError('connect() was aborted.', { cause: signal.reason });
  };
  checkAborted();
  const secret = await options.secret();
  checkAborted();
  const handshake = options.handshake(secret);
  const ctor = await loadWebSocketConstructor(options.WebSocket);
  checkAborted();
  let socket: WebSocketLike;
  try {
    socket = createSocket(ctor, options.style, handshake.url, handshake);
  } catch (error) {
    throw options.refused(error);
  }
  return options.wrap(socket, secret, handshake);
}
