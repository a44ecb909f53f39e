import { EventEmitter } from 'node:events';
import type { RealtimeConnection, RealtimeEvent } from '@parley/core';
import { OpenAIRealtimeModel } from '@parley/openai';
import { afterEach } from 'vitest';

type Listener = (event: unknown) => void;

/** A WHATWG-style socket that completes the handshake by itself and lets the test push frames. */
export class FakeSocket {
  static last: FakeSocket | undefined;
  readyState = 0;
  binaryType = 'blob';
  readonly #listeners = new Map<string, Set<Listener>>();

  constructor(_url: string, _init: unknown) {
    FakeSocket.last = this;
    queueMicrotask(() => {
      this.readyState = 1;
      this.#fire('open', {});
      this.receive(JSON.stringify({ type: 'session.created', session: {} }));
    });
  }

  addEventListener(type: string, listener: Listener): void {
    const set = this.#listeners.get(type) ?? new Set<Listener>();
    this.#listeners.set(type, set.add(listener));
  }

  removeEventListener(type: string, listener: Listener): void {
    this.#listeners.get(type)?.delete(listener);
  }

  send(data: string): void {
    const event = JSON.parse(data) as { type: string; session?: unknown };
    if (event.type === 'session.update') {
      queueMicrotask(() => this.receive(JSON.stringify({ type: 'session.updated', session: event.session })));
    }
  }

  close(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    queueMicrotask(() => this.#fire('close', { code: 1000, reason: '' }));
  }

  /** Delivers one text frame, as the socket does. */
  receive(frame: string): void {
    this.#fire('message', { data: frame });
  }

  #fire(type: string, event: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
}

/**
 * A `ws`-style socket: `open`/`error`/`close` through `addEventListener`, frames as `emit('message', bytes, isBinary)`
 * like the `ws` package's `on('message')` interface.
 */
class FakeNodeSocket extends EventEmitter {
  static last: FakeNodeSocket | undefined;
  binaryType = 'nodebuffer';
  readonly #socket = new FakeSocket('', undefined);

  constructor(_url: string, _protocols: unknown, _options: unknown) {
    super();
    FakeNodeSocket.last = this;
    // The WHATWG fake drives the handshake; its frames are handed over as bytes here.
    this.#socket.receive = (frame: string) => this.receive(Buffer.from(frame));
  }

  addEventListener(type: string, listener: Listener): void {
    this.#socket.addEventListener(type, listener);
  }

  removeEventListener(type: string, listener: Listener): void {
    this.#socket.removeEventListener(type, listener);
  }

  get readyState(): number {
    return this.#socket.readyState;
  }

  send(data: string): void {
    this.#socket.send(data);
  }

  close(): void {
    this.#socket.close();
  }

  ping(): void {}

  terminate(): void {
    this.#socket.close();
  }

  /** Delivers one text frame's bytes, as `ws` does. */
  receive(frame: Uint8Array): void {
    this.emit('message', Buffer.from(frame), false);
  }
}

export type SocketKind = 'text' | 'bytes';

const connections: RealtimeConnection[] = [];
afterEach(async () => {
  while (connections.length > 0) await connections.pop()?.close();
});

/** An `OpenAIRealtimeModel` connection over a {@link FakeSocket}; `eventsOf(frame)` is what one frame produced. */
export async function connectFake(
  kind: SocketKind = 'text',
): Promise<{ connection: RealtimeConnection; eventsOf: (frame: string | Uint8Array) => RealtimeEvent[] }> {
  const model = new OpenAIRealtimeModel({
    apiKey: 'sk-test-fuzz',
    url: 'ws://fake.invalid/v1/realtime',
    WebSocket: (kind === 'text' ? FakeSocket : FakeNodeSocket) as never,
    webSocketStyle: kind === 'text' ? 'headers-init' : 'ws',
  });
  const connection = await model.connect({ config: {} });
  connections.push(connection);
  const received: RealtimeEvent[] = [];
  connection.onEvent((event) => received.push(event));
  return {
    connection,
    eventsOf(frame) {
      received.length = 0;
      if (kind === 'bytes') {
        (FakeNodeSocket.last as FakeNodeSocket).receive(
          typeof frame === 'string' ? Buffer.from(frame) : frame,
        );
      } else {
        (FakeSocket.last as FakeSocket).receive(
          typeof frame === 'string' ? frame : Buffer.from(frame).toString(),
        );
      }
      return received.splice(0);
    },
  };
}
