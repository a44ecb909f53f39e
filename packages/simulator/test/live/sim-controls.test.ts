import { ManualClock } from '@parley/mock';
import { type LiveSimulatorOptions, silenceAudio, speechAudio } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { liveSimulator } from './live-rig.js';
import { LiveSdkClient } from './live-sdk-client.js';

async function connect(options: LiveSimulatorOptions = {}) {
  const sim = await liveSimulator({ msPerChar: 10, ...options });
  const client = LiveSdkClient.primary(sim);
  await client.waitFor('session.started');
  return { sim, client, session: await sim.waitForSession() };
}

const said = (client: LiveSdkClient) =>
  client
    .ofType('session.output_transcript.delta')
    .map((e) => e.delta)
    .join('');

describe('mute', () => {
  test('muted input is silence to the model but the timeline keeps moving; acks echo the event id', async () => {
    const { client, session } = await connect();
    client.send({ type: 'session.input_audio.mute', event_id: 'm' });
    await client.stream(speechAudio('can you hear me', { durationMs: 600 }));
    await client.stream(silenceAudio(700));
    expect(client.ofType('session.input_transcript.delta')).toEqual([]);
    expect(session.timelineMs).toBe(1300);
    client.send({ type: 'session.input_audio.unmute', event_id: 'u' });
    await client.stream(speechAudio('now', { durationMs: 400 }));
    await client.stream(silenceAudio(600));
    expect(
      client
        .ofType('session.input_transcript.delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('now');
    expect(client.ofType('session.input_audio.muted')[0]).toMatchObject({ client_event_id: 'm' });
    expect(client.ofType('session.input_audio.unmuted')[0]).toMatchObject({ client_event_id: 'u' });
  });
});

describe('fixtures', () => {
  const tone = (ms: number) => {
    const pcm = new Int16Array(ms * 24).map((_, i) => Math.round(Math.sin(i / 3) * 8000));
    return Buffer.from(pcm.buffer).toString('base64');
  };

  test('a fixture interrupts speech, plays as output audio, drops input and refuses appends while active, then played', async () => {
    const { sim, client } = await connect();
    sim.script('This is a long answer that the fixture will cut off right away');
    await client.stream(speechAudio('hello', { durationMs: 300 }));
    await client.stream(silenceAudio(600));
    client.send({ type: 'session.output_audio.fixture.play', event_id: 'f1', audio: tone(300) });
    client.send({ type: 'session.output_audio.fixture.play', event_id: 'f2', audio: tone(100) });
    client.send({ type: 'session.commentary.append', event_id: 'c', content: 'hi', delegation_id: null });
    await client.waitFor('error', 2);
    expect(client.ofType('error').map((e) => e.client_event_id)).toEqual(['f2', 'c']);
    const spokenBefore = said(client);
    await client.stream(speechAudio('ignored words', { durationMs: 300 }));
    const played = await client.waitFor('session.output_audio.fixture.played');
    expect(played).toMatchObject({ client_event_id: 'f1' });
    expect(client.ofType('session.output_audio.fixture.playing')[0]).toMatchObject({ client_event_id: 'f1' });
    await client.stream(silenceAudio(1000));
    expect(said(client)).toBe(spokenBefore);
    expect(
      client
        .ofType('session.input_transcript.delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('hello');
    const deltas = client.ofType('session.output_audio.delta').slice(-13, -10);
    expect(deltas.every((d) => Buffer.from(d.delta, 'base64').some((b) => b !== 0))).toBe(true);
    expect(client.events.some((e) => e.type === 'session.input_audio.muted')).toBe(false);
  });

  test('fixture validation: not base64, odd length, over 30 s', async () => {
    const { client } = await connect();
    client.send({ type: 'session.output_audio.fixture.play', event_id: 'a', audio: '***' });
    client.send({
      type: 'session.output_audio.fixture.play',
      event_id: 'b',
      audio: Buffer.from([1, 2, 3]).toString('base64'),
    });
    client.send({
      type: 'session.output_audio.fixture.play',
      event_id: 'c',
      audio: Buffer.alloc(48 * 30_001).toString('base64'),
    });
    await client.waitFor('error', 3);
    expect(client.ofType('error').map((e) => e.client_event_id)).toEqual(['a', 'b', 'c']);
    expect(client.ofType('session.output_audio.fixture.playing')).toEqual([]);
  });
});

describe('sideband', () => {
  test('a sideband sees session events plus reflected input and timestamped PCM16 output; its commands act on the session; closing it does not end the session', async () => {
    const { sim, client, session } = await connect();
    const side = LiveSdkClient.sideband(sim, session.id);
    await side.opened();
    client.send({ type: 'session.input_audio.mute' });
    await client.stream(silenceAudio(200));
    side.send({
      type: 'session.commentary.append',
      content: 'From the supervisor.',
      delegation_id: null,
      event_id: 's1',
    });
    side.send({ type: 'session.input_audio.append', audio: 'AAAA', event_id: 'nope' });
    await client.stream(silenceAudio(1000));
    await side.waitFor('session.commentary.appended');
    await side.waitFor('session.output_audio.delta', 12);
    await side.waitFor('session.input_audio.append', 12);
    expect(side.ofType('error').map((e) => e.client_event_id)).toEqual(['nope']);
    expect(client.ofType('session.commentary.appended')[0]).toMatchObject({ client_event_id: 's1' });
    expect(side.ofType('session.input_audio.muted')).toHaveLength(1);
    const reflections = side.ofType('session.input_audio.append');
    expect(reflections).toHaveLength(12);
    expect(reflections[0]).toEqual({ type: 'session.input_audio.append', audio: expect.any(String) });
    const out = side.ofType('session.output_audio.delta');
    expect(out[0]).toMatchObject({ start_ms: 0, end_ms: 100 });
    expect(out.at(-1)).toMatchObject({ start_ms: 1100, end_ms: 1200 });
    expect(side.invalid).toEqual([]);
    side.close();
    await side.closed;
    await client.stream(silenceAudio(100));
    expect(session.closed).toBe(false);
  });

  test('when the primary drops, sidebands get session.closed with connection_lost', async () => {
    const { sim, client, session } = await connect();
    const side = LiveSdkClient.sideband(sim, session.id);
    await side.opened();
    client.close();
    expect(await side.waitFor('session.closed')).toMatchObject({ reason: 'connection_lost' });
    await side.closed;
    expect(session.closed).toBe(true);
  });

  test('a session.close on a sideband closes the session for everyone', async () => {
    const { sim, client, session } = await connect();
    const side = LiveSdkClient.sideband(sim, session.id);
    await side.opened();
    side.send({ type: 'session.close', event_id: 'bye' });
    expect(await client.waitFor('session.closed')).toMatchObject({
      reason: 'close_requested',
      client_event_id: 'bye',
    });
    await Promise.all([client.closed, side.closed]);
  });
});

describe('expiry', () => {
  test('at the session limit: final usage, session.closed {reason: expired}, socket closed; no timers left', async () => {
    const clock = new ManualClock();
    const { client } = await connect({ clock, sessionLimitMs: 60_000 });
    await client.stream(silenceAudio(500));
    await clock.advance(59_999);
    expect(client.ofType('session.closed')).toEqual([]);
    await clock.advance(1);
    expect(await client.waitFor('session.closed')).toMatchObject({
      reason: 'expired',
      usage: { seconds: 0.5 },
    });
    expect(client.ofType('session.usage.updated').at(-1)).toMatchObject({ usage: { seconds: 0.5 } });
    await client.closed;
    expect(clock.pendingTimers).toBe(0);
  });
});
