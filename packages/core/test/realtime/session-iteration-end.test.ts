import { Agent, RealtimeSession, type RealtimeSessionEvent } from '@parley/core';
import { flushMicrotasks, ManualClock, MockConnectError, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';

const agent = new Agent({ name: 'Concierge', instructions: 'Help the guest.' });

/** Iterates the session in the background; `ended` turns true when the `for await` loop finishes. */
function iterate(session: RealtimeSession) {
  const seen: string[] = [];
  const run = { seen, ended: false, done: Promise.resolve() };
  run.done = (async () => {
    for await (const event of session as AsyncIterable<RealtimeSessionEvent>) seen.push(event.type);
    run.ended = true;
  })();
  return run;
}

describe('for await over the session ends when no more events can come', () => {
  test('a disconnect with reconnect disabled ends it after the disconnect events', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model, reconnect: false });
    await session.connect();
    const run = iterate(session);
    model.connection.disconnect('network down');
    await flushMicrotasks();
    expect(run.ended).toBe(true);
    expect(run.seen.slice(-2)).toEqual(['connection_status', 'agent_done']);
    expect(session.status).toBe('disconnected');
    await session.close();
  });

  test('a disconnect after the reconnect attempts are exhausted ends it; while reconnecting it goes on', async () => {
    const clock = new ManualClock();
    const model = new MockRealtimeModel({ clock });
    const session = new RealtimeSession(agent, { model, clock, reconnect: { jitter: 0, maxAttempts: 2 } });
    await session.connect();
    const run = iterate(session);
    model.failNextConnect(new MockConnectError('refused 1'));
    model.failNextConnect(new MockConnectError('refused 2'));
    model.connection.disconnect('network down');
    await flushMicrotasks();
    expect(session.status).toBe('reconnecting');
    expect(run.ended).toBe(false);
    await clock.advance(500);
    await flushMicrotasks();
    expect(session.status).toBe('disconnected');
    expect(run.ended).toBe(true);
    expect(run.seen.slice(-3)).toEqual(['error', 'connection_status', 'agent_done']);
    await session.close();
  });

  test('a reconnect that succeeds does not end it', async () => {
    const clock = new ManualClock();
    const model = new MockRealtimeModel({ clock });
    const session = new RealtimeSession(agent, { model, clock, reconnect: { jitter: 0 } });
    await session.connect();
    const run = iterate(session);
    model.connection.disconnect('network down');
    await clock.advance(0);
    await flushMicrotasks();
    expect(session.status).toBe('connected');
    expect(run.ended).toBe(false);
    await session.close();
    await run.done;
    expect(run.seen).toContain('reconnected');
  });

  test('after such a disconnect, listeners and new iterators still see a later connect()', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model, reconnect: false });
    const starts: string[] = [];
    session.on('agent_started', (event) => starts.push(event.agent.name));
    await session.connect();
    model.connection.disconnect('network down');
    await flushMicrotasks();
    const run = iterate(session);
    await session.connect();
    await flushMicrotasks();
    expect(run.ended).toBe(false);
    expect(run.seen).toEqual(['connection_status', 'connection_status', 'agent_started']);
    expect(starts).toEqual(['Concierge', 'Concierge']);
    await session.close();
    await run.done;
  });
});
