import { Agent, type RealtimeSessionOptions } from '@parley/core';
import { flushMicrotasks, MockRealtimeModel } from '@parley/mock';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { sessionRig } from './fixtures.js';

/**
 * `session_expiring`: a provider says, after connecting, when it will end the session (or moves that time). The
 * session recycles the connection between turns shortly before the latest time it was told, like it does for
 * `RealtimeConnection.expiresAt`.
 */

const agent = new Agent({ name: 'Clockwatcher', instructions: 'Be brief.' });

// The provider states wall-clock times (`Date.now()` here and in the session): wall time is frozen so that time
// passing between the two reads on a loaded machine cannot move the planned recycle.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function setup(
  reconnect: RealtimeSessionOptions['reconnect'] = { jitter: 0, recycleBeforeExpiryMs: 10_000 },
) {
  // No `sessionLifetimeMs`: the connection states no limit when it opens.
  const { clock, model, session, log } = sessionRig(agent, (clock) => new MockRealtimeModel({ clock }), {
    reconnect,
  });
  const expiring = (inMs: number) =>
    model.connection.emit({ type: 'session_expiring', expiresAt: Date.now() + inMs });
  return { clock, model, session, log, expiring };
}

describe('session_expiring', () => {
  test('a limit stated after connecting: the session recycles shortly before it, between turns', async () => {
    const { clock, model, session, log, expiring } = setup();
    await session.connect();
    expect(model.connection.expiresAt).toBeUndefined();
    expiring(60_000);
    await clock.advance(49_000);
    expect(model.connections).toHaveLength(1);
    await clock.advance(1_000);
    expect(model.connections).toHaveLength(2);
    expect(log.of('reconnected')).toEqual([
      { type: 'reconnected', reason: 'recycle', attempt: 1, replayedItems: 0 },
    ]);
    expect(model.connections[0]?.closeCalls).toBe(1);
    expect(session.status).toBe('connected');
    await session.close();
    expect(clock.pendingTimers).toBe(0);
  });

  test('a later time moves the recycle later; the latest announcement counts', async () => {
    const { clock, model, session, log, expiring } = setup();
    await session.connect();
    expiring(60_000);
    await clock.advance(20_000);
    // 100 s from now: due 90 s from now (at 110 s); the first plan (at 50 s) is void.
    expiring(100_000);
    await clock.advance(89_000);
    expect(model.connections).toHaveLength(1);
    await clock.advance(1_000);
    expect(model.connections).toHaveLength(2);
    expect(log.of('reconnected')).toEqual([expect.objectContaining({ reason: 'recycle' })]);
    await session.close();
  });

  test('an earlier time moves the recycle earlier (never before half the time left)', async () => {
    const { clock, model, session, expiring } = setup();
    await session.connect();
    expiring(600_000);
    expiring(16_000);
    // max(16 s − 10 s, 16 s / 2) = 8 s.
    await clock.advance(7_999);
    expect(model.connections).toHaveLength(1);
    await clock.advance(1);
    await flushMicrotasks();
    expect(model.connections).toHaveLength(2);
    await session.close();
  });

  test('the same time announced again does not postpone the recycle, and recycles once', async () => {
    const { clock, model, session, log } = setup();
    await session.connect();
    const expiresAt = Date.now() + 60_000;
    model.connection.emit({ type: 'session_expiring', expiresAt });
    await clock.advance(30_000);
    model.connection.emit({ type: 'session_expiring', expiresAt });
    model.connection.emit({ type: 'session_expiring', expiresAt });
    await clock.advance(20_000);
    expect(model.connections).toHaveLength(2);
    await clock.advance(120_000);
    expect(model.connections).toHaveLength(2);
    expect(log.of('reconnected')).toHaveLength(1);
    await session.close();
  });

  test('a time already past plans nothing (the provider ends the session, and the session reconnects then)', async () => {
    const { clock, model, session, log, expiring } = setup();
    await session.connect();
    expiring(-1_000);
    await clock.advance(600_000);
    expect(model.connections).toHaveLength(1);
    expect(log.of('reconnecting')).toEqual([]);
    expect(log.of('error')).toEqual([]);
    await session.close();
  });

  test('it waits for the turn under way: a streaming response defers the recycle until it is done', async () => {
    const { clock, model, session, log, expiring } = setup();
    await session.connect();
    expiring(60_000);
    model.respondWith({ output: [{ type: 'message', text: 'A long answer', pauseAfterChunks: 1 }] });
    session.sendMessage('Tell me everything.');
    await flushMicrotasks();
    await clock.advance(55_000);
    expect(model.connections).toHaveLength(1);
    expect(log.of('reconnecting')).toEqual([]);
    model.connection.resume();
    await flushMicrotasks();
    expect(log.of('response_done')).toHaveLength(1);
    await clock.advance(1_000);
    expect(model.connections).toHaveLength(2);
    expect(log.of('reconnected')).toEqual([expect.objectContaining({ reason: 'recycle', replayedItems: 2 })]);
    await session.close();
  });

  test('with recycle: false (or reconnect: false) an announcement changes nothing', async () => {
    for (const reconnect of [{ recycle: false }, false] as const) {
      const { clock, model, session, log, expiring } = setup(reconnect);
      await session.connect();
      expiring(60_000);
      await clock.advance(59_000);
      expect(model.connections).toHaveLength(1);
      expect(log.of('reconnecting')).toEqual([]);
      await session.close();
      expect(clock.pendingTimers).toBe(0);
    }
  });

  test('an announcement while the replacement is opening starts no second one', async () => {
    const { clock, model, session, log, expiring } = setup();
    await session.connect();
    expiring(60_000);
    const gate = model.holdConnects();
    // Due at 50 s: the replacement is opening (held).
    await clock.advance(50_000);
    expiring(30_000);
    await clock.advance(30_000);
    expect(log.of('reconnecting')).toEqual([]);
    gate.release();
    await flushMicrotasks();
    // One replacement was opened, not one per announcement.
    expect(model.connections).toHaveLength(2);
    expect(log.of('reconnected')).toEqual([expect.objectContaining({ reason: 'recycle' })]);
    await clock.advance(600_000);
    expect(model.connections).toHaveLength(2);
    await session.close();
    expect(clock.pendingTimers).toBe(0);
  });

  test('an announcement from a connection the session replaced is ignored', async () => {
    const { clock, model, session, log, expiring } = setup();
    await session.connect();
    expiring(60_000);
    await clock.advance(50_000);
    const [first] = model.connections;
    expect(model.connections).toHaveLength(2);
    first?.emit({ type: 'session_expiring', expiresAt: Date.now() + 20_000 });
    await clock.advance(600_000);
    expect(model.connections).toHaveLength(2);
    expect(log.of('reconnected')).toHaveLength(1);
    await session.close();
  });

  test('close() cancels a planned recycle: nothing is left', async () => {
    const { clock, model, session, expiring } = setup();
    await session.connect();
    expiring(60_000);
    await session.close();
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(120_000);
    expect(model.connections).toHaveLength(1);
  });
});
