import type { WebSocketConstructor } from '@parley/openai';
import { WebSocket } from 'ws';

/** A `ws` socket that records every frame the adapter sends, parsed. */
export function recordingWebSocket(sent: unknown[]): WebSocketConstructor {
  class Recording extends WebSocket {
    override send(data: string): void {
      sent.push(JSON.parse(data));
      super.send(data);
    }
  }
  return Recording as unknown as WebSocketConstructor;
}

type Listener = (event: unknown) => void;

/**
 * A WHATWG-style socket (`new WebSocket(url, { protocols, headers })`, like Node 22+, Bun and Deno) built on `ws`,
 * that reports a refused upgrade as the WHATWG socket does: an `error` event without the HTTP status, then `close`.
 */
export class StatuslessWebSocket {
  static readonly instances: StatuslessWebSocket[] = [];
  readonly #inner: WebSocket;
  readonly #listeners = new Map<string, Set<Listener>>();
  binaryType = 'arraybuffer';

  constructor(url: string, init: { protocols?: string[]; headers?: Record<string, string> } = {}) {
    this.#inner = new WebSocket(url, init.protocols ?? [], { headers: init.headers ?? {} });
    StatuslessWebSocket.instances.push(this);
    this.#inner.on('open', () => this.#dispatch('open', {}));
    this.#inner.on('message', (data) => this.#dispatch('message', { data: data.toString() }));
    this.#inner.on('error', () =>
      this.#dispatch('error', { message: 'Received network error or non-101 status code.' }),
    );
    this.#inner.on('close', (code, reason) => this.#dispatch('close', { code, reason: reason.toString() }));
  }

  get readyState(): number {
    return this.#inner.readyState;
  }

  send(data: string): void {
    this.#inner.send(data);
  }

  close(code?: number, reason?: string): void {
    this.#inner.close(code, reason);
  }

  addEventListener(type: string, listener: Listener): void {
    const set = this.#listeners.get(type) ?? new Set();
    set.add(listener);
    this.#listeners.set(type, set);
  }

  removeEventListener(type: string, listener: Listener): void {
    this.#listeners.get(type)?.delete(listener);
  }

  #dispatch(type: string, event: unknown): void {
    for (const listener of [...(this.#listeners.get(type) ?? [])]) listener(event);
  }
}
