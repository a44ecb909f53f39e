import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession } from '@parley/core';
import { flushMicrotasks, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';

const agent = new Agent({ name: 'Helper', instructions: 'Help.' });

async function connected(options: { rawEvents?: boolean; reconnect?: boolean } = {}) {
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(agent, { model, ...options });
  const log = new EventRecorder(session);
  await session.connect();
  return { model, session, log };
}

describe('raw_event: the provider’s original events, opt-in', () => {
  test('with rawEvents: true each provider event arrives as raw_event before what the session makes of it', async () => {
    const { model, session, log } = await connected({ rawEvents: true });
    model.respondWith('Hi.');
    session.generateResponse();
    await flushMicrotasks();
    const raw = log.of('raw_event');
    expect(raw.length).toBeGreaterThan(0);
    expect(raw.every((e) => e.provider === 'mock')).toBe(true);
    const rawDone = log.events.findIndex(
      (e) => e.type === 'raw_event' && (e.event as { type?: string }).type === 'response_done',
    );
    const done = log.events.findIndex((e) => e.type === 'response_done');
    expect(rawDone).toBeGreaterThanOrEqual(0);
    expect(rawDone).toBeLessThan(done);
    await session.close();
  });

  test('without it (the default) no raw_event is emitted and the connection is asked for none', async () => {
    const { model, session, log } = await connected();
    model.respondWith('Hi.');
    session.generateResponse();
    await flushMicrotasks();
    expect(log.of('response_done')).toHaveLength(1);
    expect(log.of('raw_event')).toEqual([]);
    await session.close();
  });

  test('rawEvents must be a boolean', () => {
    expect(
      () => new RealtimeSession(agent, { model: new MockRealtimeModel(), rawEvents: 1 as never }),
    ).toThrow('rawEvents must be true or false.');
  });
});

describe('usage with token details', () => {
  test('session.usage sums the token details providers report, next to the totals', async () => {
    const { model, session } = await connected();
    const usage = (input: number, audio: number, cached: number) => ({
      inputTokens: input,
      outputTokens: 10,
      totalTokens: input + 10,
      inputTokenDetails: { textTokens: input - audio, audioTokens: audio, cachedTokens: cached },
      outputTokenDetails: { textTokens: 4, audioTokens: 6 },
    });
    const c = model.connection;
    for (const [id, input, audio, cached] of [
      ['r1', 30, 20, 0],
      ['r2', 50, 10, 40],
    ] as const) {
      c.emit({ type: 'response_started', responseId: id, ephemeral: false });
      c.emit({
        type: 'response_done',
        responseId: id,
        status: 'completed',
        ephemeral: false,
        usage: usage(input, audio, cached),
      });
    }
    await flushMicrotasks();
    expect(session.usage).toEqual({
      requests: 2,
      inputTokens: 80,
      outputTokens: 20,
      totalTokens: 100,
      inputTokenDetails: { textTokens: 50, audioTokens: 30, cachedTokens: 40 },
      outputTokenDetails: { textTokens: 8, audioTokens: 12 },
    });
    await session.close();
  });
});

describe('a session expiry is a neutral seam event', () => {
  test('session_expired from the provider reconnects with reason session_expired', async () => {
    const { model, session, log } = await connected();
    model.connection.emit({ type: 'session_expired', message: 'Limit reached.' });
    await flushMicrotasks();
    expect(log.of('error')).toEqual([
      expect.objectContaining({ source: 'provider', code: 'session_expired', fatal: true }),
    ]);
    expect(log.of('reconnecting')).toEqual([expect.objectContaining({ reason: 'session_expired' })]);
    await session.close();
  });

  test('a fatal provider error whose code reads "session_expired" is only a fatal error: the session never branches on provider codes', async () => {
    const { model, session, log } = await connected();
    model.connection.emitError({ code: 'session_expired', message: 'Opaque to the session.', fatal: true });
    await flushMicrotasks();
    expect(log.of('reconnecting')).toEqual([]);
    expect(session.status).toBe('disconnected');
    await session.close();
  });

  test('response_done carries the neutral end reason and the provider’s error code', async () => {
    const { model, session, log } = await connected();
    const c = model.connection;
    c.emit({ type: 'response_started', responseId: 'r1', ephemeral: false });
    c.emit({
      type: 'response_done',
      responseId: 'r1',
      status: 'failed',
      ephemeral: false,
      reason: 'provider_error',
      errorCode: 'rate_limited',
    });
    await flushMicrotasks();
    expect(log.of('response_done')).toEqual([
      {
        type: 'response_done',
        responseId: 'r1',
        status: 'failed',
        ephemeral: false,
        reason: 'provider_error',
        errorCode: 'rate_limited',
      },
    ]);
    await session.close();
  });
});
