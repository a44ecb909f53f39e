import { Agent, type RealtimeEvent, RealtimeSession, type RealtimeSessionEvent } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAILiveModel, type OpenAILiveModelOptions } from '@parley/openai';
import type { LiveSimulator } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { closeAfterTest, liveSimulator } from './live-rig.js';

/**
 * GPT-Live states its limit as `expires_at` on every session resource and ends the session there with
 * `session.closed {reason: "expired"}`. The adapter reports the limit it started with as `expiresAt`, a limit a
 * later `session.updated` moves as `session_expiring`, and the end as `session_expired`, so the session
 * recycles before it and reconnects after it without knowing GPT-Live's words.
 */

/** A simulator and a model pointed at it. */
async function model(
  options: Partial<OpenAILiveModelOptions> = {},
): Promise<{ sim: LiveSimulator; live: OpenAILiveModel }> {
  const sim = await liveSimulator({ msPerChar: 10, usageIntervalMs: 100 });
  return {
    sim,
    live: new OpenAILiveModel({ apiKey: 'sk-live', url: sim.url, clock: new ManualClock(), ...options }),
  };
}

const TOOL = {
  name: 'lookup',
  description: 'Looks things up',
  parameters: { type: 'object', properties: {} },
};

describe('GPT-Live session limit', () => {
  test('a session.updated that moves expires_at: session_expiring with the new limit; the same limit again: nothing', async () => {
    // Responses delegation: a tool change is a session.update, answered by session.updated.
    const { sim, live } = await model({ delegation: 'responses', backend: { model: 'gpt-5.5' } });
    const connection = closeAfterTest(await live.connect({ config: { instructions: 'Be brief.' } }));
    const events: RealtimeEvent[] = [];
    connection.onEvent((event) => events.push(event));
    const expiring = () => events.filter((e) => e.type === 'session_expiring');
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 1));
    };
    const session = await sim.waitForSession();
    const started = session.resource.expires_at;
    expect(connection.expiresAt).toBe(started * 1000);

    // As a service that moved the limit would report it: the next session resource carries the new time.
    const later = started + 600;
    (session.resource as { expires_at: number }).expires_at = later;
    connection.send({ type: 'updateSession', config: { tools: [TOOL] } });
    await until(() => expiring().length > 0);
    expect(expiring()).toEqual([{ type: 'session_expiring', expiresAt: later * 1000 }]);
    expect(connection.expiresAt).toBe(later * 1000);

    // The same limit again: nothing. Input audio after it advances the timeline to a usage report, which
    // arrives after the second session.updated.
    connection.send({ type: 'updateSession', config: { tools: [TOOL, { ...TOOL, name: 'other' }] } });
    connection.send({ type: 'appendInputAudio', audio: new Uint8Array(24_000 * 2 * 0.2) });
    await until(() => events.some((e) => e.type === 'usage_updated'));
    expect(expiring()).toHaveLength(1);
  });

  test('at the limit the session reconnects (reason session_expired) on a new GPT-Live session', async () => {
    const { sim, live } = await model();
    const session = new RealtimeSession(new Agent({ name: 'Voice', instructions: 'Be brief.' }), {
      model: live,
    });
    closeAfterTest(session);
    const events: RealtimeSessionEvent[] = [];
    for (const type of ['error', 'reconnecting', 'reconnected', 'connection_status'] as const) {
      session.on(type, (event) => events.push(event as RealtimeSessionEvent));
    }
    await session.connect();
    const first = await sim.waitForSession();
    const reconnected = new Promise((resolve) => session.on('reconnected', resolve));
    first.close('expired');
    expect(await reconnected).toMatchObject({ reason: 'session_expired' });
    const next = await sim.waitForSession(1);
    expect(next.id).not.toBe(first.id);
    expect(events.find((e) => e.type === 'reconnecting')).toMatchObject({ reason: 'session_expired' });
    expect(events.filter((e) => e.type === 'error')).toEqual([
      expect.objectContaining({ source: 'provider', code: 'session_expired', fatal: true }),
    ]);
    expect(session.status).toBe('connected');
  });
});
