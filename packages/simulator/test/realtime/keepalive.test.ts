import { Agent, ConnectionClosedError, RealtimeSession, type RealtimeSessionEvent } from '@parley/core';
import { ManualClock } from '@parley/mock';
import type { KeepaliveOptions } from '@parley/openai';
import { describe, expect, test, vi } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { EventLog, modelFor, simulator } from './helpers.js';

/**
 * The `ws` sockets the adapter opens. `deadPeer`: the peer stopped answering (a connection that died without a
 * close or an error): pings leave, no pong comes back.
 */
function sockets(options: { deadPeer?: boolean } = {}) {
  const opened: WsWebSocket[] = [];
  let pings = 0;
  let pongs = 0;
  class Socket extends WsWebSocket {
    constructor(...args: ConstructorParameters<typeof WsWebSocket>) {
      super(...args);
      opened.push(this);
      this.on('pong', () => pongs++);
    }
    override ping(...args: Parameters<WsWebSocket['ping']>): void {
      pings++;
      if (!options.deadPeer) super.ping(...args);
    }
  }
  return { WebSocket: Socket, opened, pings: () => pings, pongs: () => pongs };
}

const KEEPALIVE: KeepaliveOptions = { intervalMs: 1_000, timeoutMs: 500 };

async function connected(keepalive: KeepaliveOptions | false | undefined, deadPeer = false) {
  const clock = new ManualClock();
  const sim = await simulator({ clock: new ManualClock(), pace: 'instant' });
  const socket = sockets({ deadPeer });
  const model = modelFor(sim, {
    clock,
    WebSocket: socket.WebSocket,
    ...(keepalive !== undefined && { keepalive }),
  });
  const connection = await model.connect({ config: {} });
  const log = new EventLog(connection);
  return { clock, sim, socket, connection, log };
}

const disconnects = (log: EventLog) =>
  log.events.filter((e) => e.type === 'connection_status' && e.status === 'disconnected');

describe('keepalive: an idle connection whose peer went silent is noticed without a write', () => {
  test('a ping unanswered within timeoutMs ends the connection: disconnected with the reason, sends refused', async () => {
    const { clock, socket, connection, log } = await connected(KEEPALIVE, true);
    await clock.advance(1_000);
    expect(socket.pings()).toBe(1);
    await clock.advance(499);
    expect(disconnects(log)).toEqual([]);
    await clock.advance(1);
    expect(disconnects(log)).toEqual([
      expect.objectContaining({ reason: expect.stringContaining('no pong within 500 ms') }),
    ]);
    expect(() => connection.send({ type: 'appendInputAudio', audio: new Uint8Array(480) })).toThrow(
      ConnectionClosedError,
    );
    // The dead socket is released at once, and the keepalive stops with it.
    await vi.waitFor(() => expect(socket.opened[0]?.readyState).toBe(WsWebSocket.CLOSED));
    expect(socket.opened[0]?.listenerCount('pong')).toBe(1); // the test's own
    await clock.advance(10_000);
    expect(socket.pings()).toBe(1);
    expect(disconnects(log)).toHaveLength(1);
    expect(clock.pendingTimers).toBe(0);
  });

  test('a peer that answers keeps the connection: one ping per interval, each answered before its timeout', async () => {
    const { clock, socket, log, connection } = await connected(KEEPALIVE);
    for (let round = 1; round <= 3; round++) {
      // Each step crosses the previous ping's timeout (500 ms after it): its pong came back first.
      await clock.advance(1_000);
      expect(socket.pings()).toBe(round);
      await vi.waitFor(() => expect(socket.pongs()).toBe(round));
    }
    expect(disconnects(log)).toEqual([]);
    await connection.close();
    await clock.advance(10_000);
    expect(socket.pings()).toBe(3);
    expect(clock.pendingTimers).toBe(0);
  });

  test('a timeout longer than the interval: no second ping while the first is unanswered', async () => {
    const { clock, socket, log } = await connected({ intervalMs: 100, timeoutMs: 250 }, true);
    await clock.advance(200);
    expect(socket.pings()).toBe(1);
    await clock.advance(149);
    expect(disconnects(log)).toEqual([]);
    await clock.advance(1);
    expect(disconnects(log)).toHaveLength(1);
    expect(socket.pings()).toBe(1);
  });

  test('a pong that arrives late, after the timeout: the connection is already given up, once', async () => {
    const { clock, socket, log } = await connected(KEEPALIVE, true);
    await clock.advance(1_500);
    expect(disconnects(log)).toHaveLength(1);
    socket.opened[0]?.emit('pong', Buffer.alloc(0));
    await clock.advance(5_000);
    expect(disconnects(log)).toHaveLength(1);
  });

  test('by default a ping every 30 s, answered within 10 s; keepalive: false sends none', async () => {
    const byDefault = await connected(undefined, true);
    await byDefault.clock.advance(29_999);
    expect(byDefault.socket.pings()).toBe(0);
    await byDefault.clock.advance(1);
    expect(byDefault.socket.pings()).toBe(1);
    await byDefault.clock.advance(9_999);
    expect(disconnects(byDefault.log)).toEqual([]);
    await byDefault.clock.advance(1);
    expect(disconnects(byDefault.log)).toHaveLength(1);

    const off = await connected(false, true);
    await off.clock.advance(300_000);
    expect(off.socket.pings()).toBe(0);
    expect(disconnects(off.log)).toEqual([]);
  });

  test('a RealtimeSession reconnects after a missed pong, through the ordinary disconnect path', async () => {
    const clock = new ManualClock();
    const sim = await simulator({ clock: new ManualClock(), pace: 'instant' });
    const socket = sockets({ deadPeer: true });
    const session = new RealtimeSession(new Agent({ name: 'Voice' }), {
      model: modelFor(sim, { clock, WebSocket: socket.WebSocket, keepalive: KEEPALIVE }),
      clock,
      reconnect: { jitter: 0 },
    });
    const events: RealtimeSessionEvent[] = [];
    const reconnected = new Promise((resolve) => session.on('reconnected', resolve));
    session.on('reconnecting', (event) => events.push(event));
    session.on('error', () => {});
    await session.connect();
    await clock.advance(1_500);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'reconnecting',
        reason: 'connection_lost',
        detail: expect.stringContaining('no pong'),
      }),
    ]);
    await reconnected;
    expect(session.status).toBe('connected');
    expect(sim.connections).toHaveLength(2);
    await session.close();
  });
});
