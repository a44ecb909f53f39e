import type { AddressInfo } from 'node:net';
import { Agent, RealtimeSession, type RealtimeSessionEventOf } from '@parley/core';
import { ManualClock, MockModel } from '@parley/mock';
import { OpenAILiveModel } from '@parley/openai';
import { afterEach, expect, test } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';

// The service's wire as a scripted peer: the order these events arrive in is the point of the test, and the
// simulator (which end-points each utterance before it delegates) never sends words past the offset first.
let server: WebSocketServer | undefined;
let session: RealtimeSession | undefined;
afterEach(async () => {
  await session?.close();
  await new Promise((resolve) => server?.close(resolve));
  session = server = undefined;
});

type Wire = Record<string, unknown>;

/** A GPT-Live peer that answers `session.start` with `script` (then `session.close` with `session.closed`). */
async function livePeer(
  script: readonly Wire[],
): Promise<{ url: string; received: Wire[]; commentary: Promise<Wire> }> {
  const received: Wire[] = [];
  let heard: (event: Wire) => void = () => {};
  const commentary = new Promise<Wire>((resolve) => {
    heard = resolve;
  });
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server?.once('listening', resolve));
  server.on('connection', (ws: WebSocket) => {
    const send = (event: Wire) => ws.send(JSON.stringify(event));
    ws.on('message', (data) => {
      const event = JSON.parse(String(data)) as Wire;
      received.push(event);
      if (event.type === 'session.commentary.append') heard(event);
      if (event.type === 'session.start') {
        send({
          type: 'session.started',
          event_id: 'sev_0',
          session: { id: 'live_offset', expires_at: 1_900_000_000, model: 'gpt-live-1', status: 'active' },
        });
        for (const [i, e] of script.entries()) send({ event_id: `sev_${i + 1}`, ...e });
      }
      if (event.type === 'session.close') {
        send({ type: 'session.closed', event_id: 'sev_end', reason: 'close_requested' });
        ws.close(1000);
      }
    });
  });
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/v1/live/sessions`;
  return { url, received, commentary };
}

const words = (delta: string, startMs: number, endMs: number): Wire => ({
  type: 'session.input_transcript.delta',
  delta,
  start_ms: startMs,
  end_ms: endMs,
});

test('the delegate hears what was said up to the delegation offset; words past it (arriving first) are the next turn', async () => {
  const peer = await livePeer([
    words('Check staging', 0, 600),
    words(' and tell me a joke', 900, 1500),
    {
      type: 'session.delegation.created',
      offset_ms: 700,
      delegation: { id: 'dlg_1', type: 'delegation', target: 'client' },
    },
  ]);
  const backend = new MockModel([MockModel.text('Staging is healthy.')]);
  session = new RealtimeSession(new Agent({ name: 'Voice' }), {
    model: new OpenAILiveModel({ apiKey: 'sk-test', url: peer.url, clock: new ManualClock() }),
    delegate: new Agent({ name: 'Ops', model: backend }),
  });
  const done = new Promise<RealtimeSessionEventOf<'delegation_done'>>((resolve) =>
    session?.on('delegation_done', resolve),
  );
  await session.connect();
  expect((await done).output).toBe('Staging is healthy.');

  const asked = JSON.stringify(backend.requests[0]?.input);
  expect(asked).toContain('Check staging');
  expect(asked).not.toContain('joke');
  const users = session.history.flatMap((i) =>
    i.type === 'message' && i.role === 'user' ? [[i.text, i.status]] : [],
  );
  expect(users).toEqual([
    ['Check staging', 'completed'],
    [' and tell me a joke', 'in_progress'],
  ]);
  expect(await peer.commentary).toMatchObject({ delegation_id: 'dlg_1', content: 'Staging is healthy.' });
});

test('a turn that ends before the offset goes to the delegate whole', async () => {
  const peer = await livePeer([
    words('Is staging', 0, 300),
    words(' healthy?', 300, 700),
    {
      type: 'session.delegation.created',
      offset_ms: 900,
      delegation: { id: 'dlg_2', type: 'delegation', target: 'client' },
    },
  ]);
  const backend = new MockModel([MockModel.text('Yes.')]);
  session = new RealtimeSession(new Agent({ name: 'Voice' }), {
    model: new OpenAILiveModel({ apiKey: 'sk-test', url: peer.url, clock: new ManualClock() }),
    delegate: new Agent({ name: 'Ops', model: backend }),
  });
  const done = new Promise((resolve) => session?.on('delegation_done', resolve));
  await session.connect();
  await done;
  expect(JSON.stringify(backend.requests[0]?.input)).toContain('Is staging healthy?');
  expect(session.history.filter((i) => i.type === 'message' && i.role === 'user')).toHaveLength(1);
});
