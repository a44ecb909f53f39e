import { Agent, RealtimeSession, type RealtimeSessionEvent } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAILiveModel } from '@parley/openai';
import { silenceAudio } from '@parley/simulator';
import { describe, expect, test, vi } from 'vitest';
import { closeAfterTest, liveSimulator } from './live-rig.js';

const API_KEY = 'sk-live-raw-0123456789';

/** A session on GPT-Live (simulated) that records raw events and the normalized events of a context append. */
async function connected(rawEvents: boolean) {
  const sim = await liveSimulator({ apiKeys: [API_KEY] });
  const model = new OpenAILiveModel({ apiKey: API_KEY, url: sim.url, clock: new ManualClock() });
  const session = closeAfterTest(
    new RealtimeSession(new Agent({ name: 'Voice', instructions: 'Be brief.' }), { model, rawEvents }),
  );
  const events: RealtimeSessionEvent[] = [];
  for (const type of ['raw_event', 'context_appended', 'error'] as const) {
    session.on(type, (event) => events.push(event as RealtimeSessionEvent));
  }
  await session.connect();
  return { session, events };
}

/** Appends a thought and sends the input audio that moves GPT-Live's timeline until it is acknowledged. */
async function appendThought(s: RealtimeSession, events: RealtimeSessionEvent[]): Promise<void> {
  s.appendContext('thought', 'The user is in Paris.');
  const pcm = silenceAudio(1000);
  for (let at = 0; at < pcm.length; at += 4800) s.sendAudio(pcm.subarray(at, at + 4800));
  await vi.waitFor(() => expect(events.some((e) => e.type === 'context_appended')).toBe(true), {
    timeout: 5000,
  });
}

const rawTypes = (events: RealtimeSessionEvent[]) =>
  events.flatMap((e) => (e.type === 'raw_event' ? [(e.event as { type: string }).type] : []));

describe('OpenAILiveModel: raw provider events (opt-in)', () => {
  test('rawEvents: true surfaces each GPT-Live server event as parsed JSON, ahead of what the session makes of it', async () => {
    const { session: s, events } = await connected(true);
    // The event the connection was opened on is delivered too, though it arrived before connect() resolved.
    expect(rawTypes(events)).toContain('session.started');
    await appendThought(s, events);
    const rawAppended = events.findIndex(
      (e) => e.type === 'raw_event' && (e.event as { type: string }).type === 'session.thinking.appended',
    );
    expect(rawAppended).toBeGreaterThanOrEqual(0);
    expect(rawAppended).toBeLessThan(events.findIndex((e) => e.type === 'context_appended'));
    expect(events.filter((e) => e.type === 'raw_event').every((e) => e.provider === 'openai-live')).toBe(
      true,
    );
    expect(JSON.stringify(events)).not.toContain(API_KEY);
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
  });

  test('without rawEvents no raw_event is emitted', async () => {
    const { session: s, events } = await connected(false);
    await appendThought(s, events);
    expect(events.filter((e) => e.type === 'raw_event')).toEqual([]);
  });
});
