import { ConnectionClosedError, type RealtimeEvent } from '@parley/core';
import { ManualClock } from '@parley/mock';
import {
  type ConnectFailure,
  type SocketCodec,
  SocketConnection,
  type SocketEventMap,
  type WebSocketLike,
} from '@parley/transport';
import { describe, expect, test, vi } from 'vitest';

type Listener = (event: never) => void;

/** A WHATWG-style socket the test drives: it opens, receives frames and closes when told. */
class ScriptedSocket implements WebSocketLike {
  readyState = 0;
  binaryType = 'blob';
  readonly sent: string[] = [];
  closeCalls = 0;
  failWrites = false;
  readonly #listeners = new Map<string, Set<Listener>>();

  addEventListener<K extends keyof SocketEventMap>(
    type: K,
    listener: (event: SocketEventMap[K]) => void,
  ): void {
    const set = this.#listeners.get(type) ?? new Set<Listener>();
    this.#listeners.set(type, set.add(listener as Listener));
  }

  removeEventListener<K extends keyof SocketEventMap>(
    type: K,
    listener: (event: SocketEventMap[K]) => void,
  ): void {
    this.#listeners.get(type)?.delete(listener as Listener);
  }

  get listenerCount(): number {
    return [...this.#listeners.values()].reduce((n, set) => n + set.size, 0);
  }

  send(data: string): void {
    if (this.failWrites) throw new Error('write EPIPE');
    this.sent.push(data);
  }

  close(): void {
    this.closeCalls++;
    if (this.readyState !== 1) return;
    this.readyState = 2;
  }

  open(): void {
    this.readyState = 1;
    this.fire('open', {});
  }

  receive(text: string): void {
    this.fire('message', { data: text });
  }

  closed(code: number, reason: string): void {
    this.readyState = 3;
    this.fire('close', { code, reason });
  }

  fire(type: string, event: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) (listener as (e: unknown) => void)(event);
  }
}

class TimedOut extends Error {}
class Failed extends Error {
  constructor(readonly failure: ConnectFailure) {
    super('failed');
  }
}

/** A codec whose session is ready on the frame `ready`; other frames become text deltas. */
function setup(options: { rawEvents?: boolean } = {}) {
  const clock = new ManualClock();
  const socket = new ScriptedSocket();
  const stopped: string[] = [];
  let link!: SocketConnection;
  const codec: SocketCodec = {
    opened: () => link.transmit('start', '{"type":"start"}'),
    frame: (text, sink) => {
      if (text === 'ready') link.ready();
      else if (text.startsWith('sink:'))
        sink.deliver({ type: 'text_delta', responseId: 'r', itemId: 'i', delta: text.slice(5) });
      else link.emit({ type: 'text_delta', responseId: 'r', itemId: 'i', delta: text });
    },
    stopped: () => stopped.push('stopped'),
    connectFailed: (failure) => new Failed(failure),
    connectTimedOut: () => new TimedOut(),
  };
  link = new SocketConnection(
    socket,
    {
      clock,
      connectTimeoutMs: 1_000,
      closeTimeoutMs: 500,
      name: 'test',
      rawEvents: options.rawEvents,
      redact: (text) => text.replaceAll('sk-secret', '[redacted]'),
    },
    codec,
  );
  const events: RealtimeEvent[] = [];
  return { clock, socket, link, events, stopped, listen: () => link.onEvent((e) => events.push(e)) };
}

async function opened(options: { rawEvents?: boolean } = {}) {
  const rig = setup(options);
  const ready = rig.link.waitUntilReady(undefined);
  rig.socket.open();
  rig.socket.receive('ready');
  await ready;
  rig.listen();
  await Promise.resolve();
  return rig;
}

describe('SocketConnection', () => {
  test('the codec starts the session on open; events before a listener come as a backlog, in order', async () => {
    const rig = setup();
    const ready = rig.link.waitUntilReady(undefined);
    rig.socket.open();
    expect(rig.socket.sent).toEqual(['{"type":"start"}']);
    rig.socket.receive('hello');
    rig.socket.receive('ready');
    await ready;
    expect(rig.link.status).toBe('open');
    rig.listen();
    expect(rig.events).toEqual([]);
    await Promise.resolve();
    expect(rig.events.map((e) => e.type)).toEqual(['text_delta', 'connection_status']);
  });

  test('what the codec hands its sink reaches the listeners in order: after the backlog, one listener or several', async () => {
    const rig = setup();
    const ready = rig.link.waitUntilReady(undefined);
    rig.socket.open();
    rig.socket.receive('sink:early');
    rig.socket.receive('ready');
    await ready;
    rig.listen();
    rig.socket.receive('sink:queued');
    await Promise.resolve();
    rig.socket.receive('sink:one');
    const second: string[] = [];
    const off = rig.link.onEvent((e) => e.type === 'text_delta' && second.push(e.delta));
    rig.socket.receive('sink:two');
    off();
    rig.socket.receive('sink:three');
    const deltas = rig.events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : []));
    expect(deltas).toEqual(['early', 'queued', 'one', 'two', 'three']);
    expect(second).toEqual(['two']);
  });

  test('a listener that throws on what the codec handed its sink is reported; the socket is still read', async () => {
    const reported: unknown[] = [];
    vi.stubGlobal('reportError', (error: unknown) => reported.push(error));
    try {
      const rig = setup();
      const ready = rig.link.waitUntilReady(undefined);
      rig.socket.open();
      rig.socket.receive('ready');
      await ready;
      const heard: string[] = [];
      // The one listener: the sink hands it events directly.
      rig.link.onEvent((e) => {
        if (e.type !== 'text_delta') return;
        heard.push(e.delta);
        if (e.delta === 'boom') throw new Error('listener failed');
      });
      await Promise.resolve();
      rig.socket.receive('sink:boom');
      rig.socket.receive('sink:after');
      expect(heard).toEqual(['boom', 'after']);
      expect(reported).toEqual([new Error('listener failed')]);
      expect(rig.link.status).toBe('open');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  test('a write to a socket that stopped being open throws; disconnected is reported after send returns', async () => {
    const rig = await opened();
    rig.socket.readyState = 2;
    expect(() => rig.link.transmit('appendInputAudio', '{}')).toThrow(ConnectionClosedError);
    expect(rig.link.status).toBe('closed');
    expect(rig.events.filter((e) => e.type === 'connection_status' && e.status === 'disconnected')).toEqual(
      [],
    );
    await Promise.resolve();
    expect(rig.events.at(-1)).toMatchObject({ type: 'connection_status', status: 'disconnected' });
    expect(rig.stopped).toEqual(['stopped']);
    expect(rig.socket.listenerCount).toBe(0);
  });

  test('a failed write ends the connection, its redacted reason in the event', async () => {
    const rig = await opened();
    rig.socket.failWrites = true;
    expect(() => rig.link.transmit('sendToolOutput', '{"key":"sk-secret"}')).toThrow(/write EPIPE/);
    await Promise.resolve();
    const event = rig.events.at(-1);
    expect(event).toMatchObject({ type: 'connection_status', status: 'disconnected' });
    expect(JSON.stringify(event)).toContain('sendToolOutput');
  });

  test('the connect deadline rejects with the codec error after the socket is released', async () => {
    const rig = setup();
    const ready = rig.link.waitUntilReady(undefined);
    const outcome = ready.catch((error: unknown) => error);
    rig.socket.open();
    await rig.clock.advance(1_000);
    expect(rig.socket.closeCalls).toBe(1);
    rig.socket.closed(1000, '');
    expect(await outcome).toBeInstanceOf(TimedOut);
    expect(rig.socket.listenerCount).toBe(0);
  });

  test('a close before ready fails connect with what the codec names from the failure', async () => {
    const rig = setup();
    const outcome = rig.link.waitUntilReady(undefined).catch((error: unknown) => error);
    rig.socket.fire('error', { message: 'Unexpected server response: 401' });
    const error = (await outcome) as Failed;
    expect(error).toBeInstanceOf(Failed);
    expect(error.failure).toMatchObject({ opened: false, status: 401 });
  });

  test("the owner's close reports nothing; a close by the peer reports disconnected with its redacted reason", async () => {
    const owner = await opened();
    const closing = owner.link.close();
    expect(owner.link.close()).toBe(closing);
    owner.socket.closed(1000, 'bye');
    await closing;
    expect(owner.events.filter((e) => e.type === 'connection_status' && e.status === 'disconnected')).toEqual(
      [],
    );

    const peer = await opened();
    peer.socket.closed(1011, 'key sk-secret expired');
    expect(peer.events.at(-1)).toEqual({
      type: 'connection_status',
      status: 'disconnected',
      reason: 'key [redacted] expired',
    });
  });

  test('a close whose handshake never completes is given up after closeTimeoutMs', async () => {
    const rig = await opened();
    let done = false;
    const closing = rig.link.close().then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    await rig.clock.advance(500);
    await closing;
    expect(rig.link.status).toBe('closed');
    expect(rig.socket.listenerCount).toBe(0);
  });

  test('rawEvents emits each frame, redacted, ahead of what the codec makes of it', async () => {
    const rig = await opened({ rawEvents: true });
    rig.socket.receive('{"note":"sk-secret"}');
    expect(rig.events.slice(-2)).toEqual([
      { type: 'raw_event', event: { note: '[redacted]' } },
      { type: 'text_delta', responseId: 'r', itemId: 'i', delta: '{"note":"sk-secret"}' },
    ]);
  });
});
