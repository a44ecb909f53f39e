import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession, SessionNotConnectedError } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAILiveModel } from '@parley/openai';
import { describe, expect, test } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { closingWithoutAcknowledgement, trackedWebSocket } from '../realtime/session-rig.js';
import { closeAfterTest, liveSimulator } from './live-rig.js';

async function connected() {
  const clock = new ManualClock();
  const sim = await liveSimulator({ clock });
  const sockets: WsWebSocket[] = [];
  const model = new OpenAILiveModel({
    apiKey: 'sk-live',
    url: sim.url,
    clock,
    WebSocket: trackedWebSocket(sockets),
  });
  const session = closeAfterTest(
    new RealtimeSession(new Agent({ name: 'Voice' }), { model, clock, reconnect: { jitter: 0 } }),
  );
  const events = new EventRecorder(session, { via: 'listeners' });
  await session.connect();
  return { session, sockets, events };
}

describe('GPT-Live: a socket that stops being open is a disconnect at once', () => {
  test('closing with no close acknowledgement: audio sent meanwhile is refused with a typed error; the session reconnects', async () => {
    const { session, sockets, events } = await connected();
    closingWithoutAcknowledgement(sockets[0] as WsWebSocket);

    expect(() => session.sendAudio(new Uint8Array(4800))).toThrow(SessionNotConnectedError);
    await events.waitFor('reconnected');

    const cut = events.events.filter((e) => e.type === 'error' || e.type === 'reconnecting');
    expect(cut.map((e) => e.type)).toEqual(['error', 'reconnecting']);
    expect(cut[0]).toMatchObject({ code: 'connection_lost' });
    expect(cut[1]).toMatchObject({ reason: 'connection_lost', attempt: 1 });
    expect(sockets).toHaveLength(2);
    expect(sockets[0]?.listenerCount('message')).toBe(0);
    session.sendAudio(new Uint8Array(4800));
  });

  test('a socket error on the open connection: disconnected in the same turn, reconnected', async () => {
    const { session, sockets, events } = await connected();
    const socket = sockets[0] as WsWebSocket;
    let statusAtError: string | undefined;
    const onError = () => {
      statusAtError = session.status;
    };
    socket.on('error', onError);

    socket.emit('error', new Error('Invalid UTF-8 sequence'));
    socket.off('error', onError);

    expect(statusAtError).toBe('reconnecting');
    await events.waitFor('reconnected');
    expect(events.of('reconnecting')[0]).toMatchObject({
      detail: expect.stringContaining('Invalid UTF-8'),
    });
  });
});

describe('GPT-Live keepalive: a peer that went silent is noticed without a write failing', () => {
  test('a ping unanswered within timeoutMs: disconnected with the reason, the session reconnects', async () => {
    const clock = new ManualClock();
    const sim = await liveSimulator({ clock });
    let pings = 0;
    class DeadPeerSocket extends WsWebSocket {
      override ping(): void {
        pings++; // never sent: no pong comes back
      }
    }
    const model = new OpenAILiveModel({
      apiKey: 'sk-live',
      url: sim.url,
      clock,
      WebSocket: DeadPeerSocket,
      keepalive: { intervalMs: 1_000, timeoutMs: 500 },
    });
    expect(() => new OpenAILiveModel({ apiKey: 'sk-live', keepalive: { intervalMs: 1.5 } })).toThrow(
      /keepalive\.intervalMs must be a positive integer/,
    );
    const session = closeAfterTest(
      new RealtimeSession(new Agent({ name: 'Voice' }), { model, clock, reconnect: { jitter: 0 } }),
    );
    const events = new EventRecorder(session, { via: 'listeners' });
    await session.connect();
    await clock.advance(1_499);
    expect(pings).toBe(1);
    expect(events.of('reconnecting')).toEqual([]);
    await clock.advance(1);
    expect(events.of('reconnecting')).toEqual([
      expect.objectContaining({
        reason: 'connection_lost',
        detail: expect.stringContaining('no pong within 500 ms'),
      }),
    ]);
    await events.waitFor('reconnected');
    expect(session.status).toBe('connected');
  });
});
