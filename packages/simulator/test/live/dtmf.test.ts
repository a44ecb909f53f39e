import { Agent, RealtimeSession, type RealtimeSessionEvent, UserError } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAILiveModel } from '@parley/openai';
import { describe, expect, test, vi } from 'vitest';
import { closeAfterTest, liveSimulator } from './live-rig.js';

const API_KEY = 'sk-live-dtmf-0123456789';

async function connected() {
  const sim = await liveSimulator({ apiKeys: [API_KEY] });
  const model = new OpenAILiveModel({ apiKey: API_KEY, url: sim.url, clock: new ManualClock() });
  const session = closeAfterTest(new RealtimeSession(new Agent({ name: 'Voice' }), { model }));
  const events: RealtimeSessionEvent[] = [];
  for (const type of ['dtmf', 'error'] as const) session.on(type, (event) => events.push(event));
  await session.connect();
  return { sim, session, events, service: sim.sessions[0] };
}

describe('OpenAILiveModel: DTMF (GPT-Live carries it on a SIP call)', () => {
  test('a key the caller pressed on the call (transport.dtmf.received) is a dtmf session event, once', async () => {
    const { session, events, service } = await connected();
    service?.callerPressed('7');
    service?.callerPressed('#');
    await vi.waitFor(() => expect(events.filter((e) => e.type === 'dtmf')).toHaveLength(2));
    expect(events).toEqual([
      { type: 'dtmf', digit: '7', source: 'provider' },
      { type: 'dtmf', digit: '#', source: 'provider' },
    ]);
    expect(session.status).toBe('connected');
  });

  test('sendDtmf writes transport.dtmf.send; off a SIP call the service refuses it, as an error naming the command', async () => {
    const { sim, session, events } = await connected();
    session.sendDtmf('5');
    await vi.waitFor(() => expect(events.some((e) => e.type === 'error')).toBe(true));
    const sent = sim.clientEvents.map((e) => e.event as { type: string; event?: string });
    expect(sent.filter((e) => e.type === 'transport.dtmf.send')).toEqual([
      expect.objectContaining({ type: 'transport.dtmf.send', event: '5' }),
    ]);
    // The primary WebSocket of a session that answers no SIP call does not take it.
    expect(events.find((e) => e.type === 'error')).toMatchObject({
      source: 'provider',
      message: expect.stringContaining("'transport.dtmf.send'"),
    });
    expect(session.status).toBe('connected');
  });

  test('anything but a DTMF key is refused before anything is sent', async () => {
    const { sim, session } = await connected();
    expect(() => session.sendDtmf('x' as never)).toThrow(UserError);
    expect(() => session.sendDtmf('12' as never)).toThrow(UserError);
    expect(sim.clientEvents.some((e) => (e.event as { type: string }).type === 'transport.dtmf.send')).toBe(
      false,
    );
  });
});
