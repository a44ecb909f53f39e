import { Agent, RealtimeSession, type RealtimeSessionEvent } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAILiveModel } from '@parley/openai';
import { describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { closeAfterTest, liveSimulator } from './live-rig.js';

/** A session on the GPT-Live simulator, with its error, disconnect and reconnect events recorded. */
async function liveSession() {
  const clock = new ManualClock();
  const sim = await liveSimulator({ clock });
  const model = new OpenAILiveModel({ apiKey: 'sk-live', url: sim.url, WebSocket, keepalive: false });
  const session = closeAfterTest(new RealtimeSession(new Agent({ name: 'Voice' }), { model, clock }));
  const events: RealtimeSessionEvent[] = [];
  for (const type of ['error', 'connection_status', 'reconnecting'] as const) {
    session.on(type, (event) => events.push(event));
  }
  await session.connect();
  // The session's end of the connection: disconnected (no reconnect), or a reconnect begun.
  const disconnected = new Promise<void>((resolve) => {
    session.on('connection_status', (e) => {
      if (e.status === 'disconnected') resolve();
    });
    session.on('reconnecting', () => resolve());
  });
  return { sim, session, events, disconnected, live: await sim.waitForSession(0) };
}

describe('GPT-Live: a failure that ends the session is a fatal error, not a reconnect', () => {
  test('a close with a final code (1008) and no session.closed: fatal policy_violation, then disconnected', async () => {
    const { session, events, disconnected, live } = await liveSession();
    live.endWithFailure({ closeCode: 1008, reason: 'refused' });
    await disconnected;
    expect(
      events.filter(
        (e) => e.type === 'error' || (e.type === 'connection_status' && e.status === 'disconnected'),
      ),
    ).toEqual([
      expect.objectContaining({
        type: 'error',
        source: 'provider',
        code: 'policy_violation',
        fatal: true,
        message: expect.stringContaining('close code 1008'),
      }),
      expect.objectContaining({ type: 'connection_status', status: 'disconnected' }),
    ]);
    expect(session.status).toBe('disconnected');
  });

  test('an account error before the close is the one fatal error: the close adds none', async () => {
    const { events, disconnected, live } = await liveSession();
    live.endWithFailure({
      closeCode: 1008,
      error: { code: 'invalid_api_key', message: 'Incorrect API key provided.' },
    });
    await disconnected;
    expect(events.filter((e) => e.type === 'error')).toEqual([
      expect.objectContaining({ code: 'invalid_api_key', fatal: true }),
    ]);
    expect(events.filter((e) => e.type === 'reconnecting')).toEqual([]);
  });

  test('a transient close (1011) is no error: the session reconnects', async () => {
    const { events, disconnected, live } = await liveSession();
    live.endWithFailure({ closeCode: 1011, reason: 'internal error' });
    await disconnected;
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(events.filter((e) => e.type === 'reconnecting')).toHaveLength(1);
  });

  test('a final close code after session.closed ends the session as session.closed said: the close adds no error', async () => {
    const { events, disconnected, live } = await liveSession();
    live.close('content', undefined, 1008);
    await disconnected;
    // session.closed said why the session ended; the close code that follows is not a second, fatal, failure.
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
  });

  test('an error that is not about the account leaves the session open', async () => {
    const { session, events, live } = await liveSession();
    const errored = new Promise((resolve) => session.on('error', resolve));
    live.serverError('server_error', 'Something went wrong.');
    await errored;
    expect(events.filter((e) => e.type === 'error')).toEqual([
      expect.objectContaining({ code: 'server_error', source: 'provider' }),
    ]);
    expect(events.find((e) => e.type === 'error')).not.toHaveProperty('fatal', true);
    expect(session.status).toBe('connected');
  });
});
