import { Agent, RealtimeSession, type RealtimeSessionEvent, UserError } from '@parley/core';
import { flushMicrotasks, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';

const agent = new Agent({ name: 'Phone', instructions: 'Answer the phone.' });

async function connected() {
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(agent, { model });
  const events: RealtimeSessionEvent[] = [];
  for (const type of ['dtmf', 'error'] as const) session.on(type, (event) => events.push(event));
  const log = { of: (type: string) => events.filter((e) => e.type === type) };
  await session.connect();
  return { model, session, log };
}

describe('DTMF: keys the caller pressed are session events', () => {
  test('receiveDtmf (a line the app carries) emits one dtmf event per key, in order', async () => {
    const { session, log } = await connected();
    session.receiveDtmf('1');
    session.receiveDtmf('#');
    session.receiveDtmf('1');
    expect(log.of('dtmf')).toEqual([
      { type: 'dtmf', digit: '1', source: 'line' },
      { type: 'dtmf', digit: '#', source: 'line' },
      { type: 'dtmf', digit: '1', source: 'line' },
    ]);
    await session.close();
  });

  test('anything but a key is a UserError, and nothing is emitted', async () => {
    const { session, log } = await connected();
    for (const bad of ['', '12', 'x', 'E', 1]) {
      expect(() => session.receiveDtmf(bad as never)).toThrow(UserError);
      expect(() => session.sendDtmf(bad as never)).toThrow(UserError);
    }
    expect(log.of('dtmf')).toEqual([]);
    await session.close();
  });

  test('sendDtmf on a provider that carries no call: its refusal arrives as an error event; the session goes on', async () => {
    const { session, log } = await connected();
    session.sendDtmf('5');
    await flushMicrotasks();
    expect(log.of('error')).toMatchObject([{ source: 'provider', code: 'capability_not_supported' }]);
    expect(session.status).toBe('connected');
    await session.close();
  });

  test('after close a key reported by the line is dropped: a closed session emits nothing', async () => {
    const { session, log } = await connected();
    await session.close();
    session.receiveDtmf('9');
    expect(log.of('dtmf')).toEqual([]);
    expect(() => session.sendDtmf('9')).toThrow();
  });
});
