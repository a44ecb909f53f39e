/** The events of a WHATWG-style WebSocket that Parley listens to. */
export interface SocketEventMap {
  open: unknown;
  message: { data: unknown };
  close: { code: number; reason: string; wasClean?: boolean };
  error: { message?: string; error?: unknown };
}

/**
 * The WHATWG WebSocket subset every Parley adapter uses: `addEventListener`, `removeEventListener`, `send`, `close`,
 * `binaryType` and `readyState`. `globalThis.WebSocket` (browsers, Node >= 22, Bun, Deno) and the `ws` package
 * both fit.
 */
export interface WebSocketLike {
  readonly readyState: number;
  binaryType: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener<K extends keyof SocketEventMap>(
    type: K,
    listener: (event: SocketEventMap[K]) => void,
  ): void;
  removeEventListener<K extends keyof SocketEventMap>(
    type: K,
    listener: (event: SocketEventMap[K]) => void,
  ): void;
}

/** A WebSocket constructor: `globalThis.WebSocket`, the `ws` package's default export, or a compatible class. */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike;

/**
 * How the WebSocket constructor takes request headers:
 * - `'ws'`: `new WebSocket(url, protocols, { headers })` — the `ws` package and classes compatible with it;
 * - `'headers-init'`: `new WebSocket(url, { protocols, headers })` — the native WebSocket of Node (undici), Bun
 *   and Deno;
 * - `'browser'`: `new WebSocket(url, protocols)` without headers — credentials can only travel in the URL or as
 *   subprotocols (OpenAI: an ephemeral `ek_` key as the `openai-insecure-api-key.<key>` subprotocol).
 */
export type WebSocketStyle = 'ws' | 'headers-init' | 'browser';
