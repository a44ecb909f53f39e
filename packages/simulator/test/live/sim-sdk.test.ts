import type { LiveClientEvent, LiveServerEvent } from '@parley/openai/wire';
import { silenceAudio, speechAudio } from '@parley/simulator';
import type {
  ClientEvent as SdkClientEvent,
  ServerEvent as SdkServerEvent,
} from 'openai/resources/live/live';
import { describe, expect, test } from 'vitest';
import { liveSimulator } from './live-rig.js';
import { LiveSdkClient } from './live-sdk-client.js';

describe('GPT-Live simulator with the official openai Live client', () => {
  test('the wire catalogue matches the SDK: every catalogue server event is an SDK one, every SDK client event type is catalogued', () => {
    const serverEvents: [LiveServerEvent] extends [SdkServerEvent] ? true : false = true;
    const clientEvents: [SdkClientEvent['type']] extends [LiveClientEvent['type']] ? true : false = true;
    expect([serverEvents, clientEvents]).toEqual([true, true]);
  });

  test('a spoken conversation: start, continuous output, transcripts on the timeline, usage, close', async () => {
    const sim = await liveSimulator({ usageIntervalMs: 1000 });
    sim.script('Hello there, how can I help?');
    const client = LiveSdkClient.primary(
      sim,
      {
        model: 'gpt-live-1',
        instructions: 'Be brief.',
        audio: { format: { type: 'audio/pcm', rate: 24000 } },
      },
      { eventId: 'evt_start' },
    );
    const started = await client.waitFor('session.started');
    expect(started).toMatchObject({
      client_event_id: 'evt_start',
      session: {
        model: 'gpt-live-1',
        status: 'active',
        instructions: 'Be brief.',
        audio: { format: { type: 'audio/pcm', rate: 24000 }, output: { voice: 'marin' } },
        delegation: { type: 'client', acknowledgement_delay_ms: 0 },
      },
    });
    expect((started as { session: { id: string } }).session.id).toMatch(/^live_/);

    await client.stream(silenceAudio(300));
    await client.stream(speechAudio('good morning', { durationMs: 800 }));
    await client.stream(silenceAudio(2500));
    client.send({ type: 'session.close', event_id: 'evt_close' });
    const closed = await client.waitFor('session.closed');
    expect(await client.closed).toMatchObject({ code: 1000 });

    expect(client.invalid).toEqual([]);
    // One output delta per input frame, same duration, no timestamps on the primary socket.
    const deltas = client.ofType('session.output_audio.delta');
    expect(deltas).toHaveLength(3 + 8 + 25);
    for (const delta of deltas) {
      expect(Buffer.from(delta.delta, 'base64').length).toBe(4800);
      expect(delta).not.toHaveProperty('start_ms');
    }
    // Silence before the reply is exact zeros; the reply is not.
    expect(Buffer.from(deltas[0]?.delta ?? '', 'base64').every((b) => b === 0)).toBe(true);
    expect(deltas.some((d) => Buffer.from(d.delta, 'base64').some((b) => b !== 0))).toBe(true);

    const heard = client.ofType('session.input_transcript.delta');
    expect(heard.map((e) => e.delta).join('')).toBe('good morning');
    expect(heard[0]?.start_ms).toBe(300);
    for (const [i, e] of heard.entries()) {
      expect(e.end_ms).toBeGreaterThan(e.start_ms);
      if (i > 0) expect(e.start_ms).toBeGreaterThanOrEqual(heard[i - 1]?.end_ms ?? 0);
      expect(e.end_ms).toBeLessThanOrEqual(1100);
    }
    const said = client.ofType('session.output_transcript.delta');
    expect(said.map((e) => e.delta).join('')).toBe('Hello there, how can I help?');
    // The model answers after it end-points the utterance (≥ 500 ms of silence after 1100 ms).
    expect(said[0]?.start_ms).toBeGreaterThanOrEqual(1600);

    // No Realtime-API events and no SDK-reserved names.
    const types = new Set(client.events.map((e) => e.type));
    for (const type of types)
      expect(type).not.toMatch(/^(response\.done|input_audio_buffer|conversation\.item)/);
    // Usage: cumulative seconds of timeline, repeated in session.closed.
    const usage = client.ofType('session.usage.updated').map((e) => e.usage.seconds);
    expect(usage.slice(0, 3)).toEqual([1, 2, 3]);
    expect(closed).toMatchObject({
      reason: 'close_requested',
      client_event_id: 'evt_close',
      usage: { seconds: 3.6 },
      session: { status: 'active' },
    });
    expect(usage.at(-1)).toBe(3.6);
  });

  test('the timeline advances only with input audio: no output, no acks while input stops', async () => {
    const sim = await liveSimulator();
    const client = LiveSdkClient.primary(sim);
    await client.waitFor('session.started');
    client.send({ type: 'session.instructions.append', content: 'Use metric units.', delegation_id: null });
    client.send({ type: 'session.close', event_id: 'c' });
    await client.waitFor('session.closed');
    expect(client.ofType('session.instructions.appended')).toEqual([]);
    expect(client.ofType('session.output_audio.delta')).toEqual([]);
    expect(client.ofType('session.closed')[0]).toMatchObject({ usage: { seconds: 0 } });
  });

  test('G.711 µ-law sessions: the timeline counts 8 bytes per ms and output comes in the session format', async () => {
    const sim = await liveSimulator();
    const client = LiveSdkClient.primary(sim, {
      model: 'gpt-live-1',
      audio: { format: { type: 'audio/pcmu', rate: 8000 } },
    });
    await client.waitFor('session.started');
    await client.stream(new Uint8Array(800).fill(0xff), 50, 8);
    const deltas = client.ofType('session.output_audio.delta');
    expect(deltas.map((d) => Buffer.from(d.delta, 'base64').length)).toEqual([400, 400]);
    // µ-law silence is 0xFF.
    expect(Buffer.from(deltas[0]?.delta ?? '', 'base64').every((b) => b === 0xff)).toBe(true);
    expect((await sim.waitForSession()).timelineMs).toBe(100);
  });
});

describe('handshake and strict validation', () => {
  test('refuses an upgrade without a bearer key, with a wrong key, with query parameters, or on another path', async () => {
    const sim = await liveSimulator({ apiKeys: ['sk-right'] });
    const wrong = LiveSdkClient.primary(sim, { model: 'gpt-live-1' }, { apiKey: 'sk-wrong' });
    await wrong.closed;
    expect(sim.upgrades.map((u) => u.status)).toEqual([401]);
    const { WebSocket } = await import('ws');
    const statusOf = (path: string, headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${sim.port}${path}`, { headers });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => {
          ws.close();
          resolve(101);
        });
      });
    expect(await statusOf('/v1/live/sessions', {})).toBe(401);
    expect(await statusOf('/v1/live/sessions?model=gpt-live-1', { Authorization: 'Bearer sk-right' })).toBe(
      400,
    );
    expect(await statusOf('/v1/realtime', { Authorization: 'Bearer sk-right' })).toBe(404);
    expect(await statusOf('/v1/live/sessions/live_nope/attach', { Authorization: 'Bearer sk-right' })).toBe(
      404,
    );
    expect(await statusOf('/v1/live/sessions', { Authorization: 'Bearer sk-right' })).toBe(101);
  });

  test('an unknown field at any depth fails startup with unknown_parameter naming its path, then the socket closes', async () => {
    const { ManualClock } = await import('@parley/mock');
    const clock = new ManualClock();
    const sim = await liveSimulator({ clock });
    for (const [session, param] of [
      [{ model: 'gpt-live-1', voice: 'marin' }, 'session.voice'],
      [
        { model: 'gpt-live-1', audio: { output: { voice: 'marin', speed: 1 } } },
        'session.audio.output.speed',
      ],
      [{ model: 'gpt-live-1', delegation: { type: 'client', tools: [] } }, 'session.delegation.tools'],
      [
        {
          model: 'gpt-live-1',
          delegation: { type: 'responses', responses: { model: 'gpt-5.5', temperature: 1 } },
        },
        'session.delegation.responses.temperature',
      ],
      [
        { model: 'gpt-live-1', input: [{ role: 'user', content: [{ text: 'hi', extra: 1 }] }] },
        'session.input[0].content[0].extra',
      ],
    ] as const) {
      const client = LiveSdkClient.primary(sim, session, { eventId: 'evt_s' });
      const error = await client.waitFor('error');
      expect(error).toMatchObject({
        client_event_id: 'evt_s',
        error: { type: 'invalid_request_error', code: 'unknown_parameter', param, client_event_id: 'evt_s' },
      });
      expect(client.ofType('session.started')).toEqual([]);
      await clock.advance(1999);
      expect(client.ws.socket.readyState).toBe(1);
      await clock.advance(1);
      await client.closed;
      expect(client.invalid).toEqual([]);
    }
    expect(sim.sessions).toHaveLength(0);
  });

  test('startup limits: oversized instructions or input, a missing model, a first frame that is not session.start', async () => {
    const sim = await liveSimulator({ startupCloseDelayMs: 0 });
    const cases: [unknown, string][] = [
      [{ model: 'gpt-live-1', instructions: 'x'.repeat(60_000) }, 'session.instructions'],
      [
        {
          model: 'gpt-live-1',
          input: Array.from({ length: 129 }, () => ({ role: 'user', content: [{ text: 'hi' }] })),
        },
        'session.input',
      ],
      [{ instructions: 'no model' }, 'session.model'],
      [
        { model: 'gpt-live-1', audio: { format: { type: 'audio/pcm', rate: 44100 } } },
        'session.audio.format.rate',
      ],
    ];
    for (const [session, param] of cases) {
      const client = LiveSdkClient.primary(sim, session as Record<string, unknown>);
      expect(await client.waitFor('error')).toMatchObject({ error: { param } });
      await client.closed;
    }
    const early = LiveSdkClient.primary(sim, null);
    early.send({ type: 'session.input_audio.mute', event_id: 'too-early' });
    early.send({ type: 'session.start', session: { model: 'gpt-live-1' } });
    expect(await early.waitFor('error')).toMatchObject({
      client_event_id: 'too-early',
      error: { param: 'type' },
    });
    await early.closed;
    expect(early.ofType('session.started')).toEqual([]);
    expect(sim.sessions).toHaveLength(0);
  });

  test('a second session.start and unknown events are errors; the session continues', async () => {
    const sim = await liveSimulator();
    const client = LiveSdkClient.primary(sim);
    await client.waitFor('session.started');
    client.send({ type: 'session.start', session: { model: 'gpt-live-1' }, event_id: 'again' });
    client.send({ type: 'input_audio_buffer.commit', event_id: 'commit' });
    client.send({ type: 'session.input_audio.mute', event_id: 'm' });
    await client.waitFor('session.input_audio.muted');
    const errors = client.ofType('error');
    expect(errors.map((e) => e.client_event_id)).toEqual(['again', 'commit']);
    expect(errors[1]?.error.message).toContain('session.input_audio.append');
    expect(errors[1]?.error.message).toContain('session.commentary.append');
    expect(client.ofType('session.input_audio.muted')[0]).toMatchObject({ client_event_id: 'm' });
    expect(client.invalid).toEqual([]);
  });

  test('session.update changes only delegation settings of the same type (tools replaced) and triggers', async () => {
    const sim = await liveSimulator();
    const tool = (name: string) => ({ type: 'function' as const, name, parameters: { type: 'object' } });
    const client = LiveSdkClient.primary(sim, {
      model: 'gpt-live-1',
      delegation: {
        type: 'responses',
        responses: { model: 'gpt-5.5', instructions: 'Use tools.', tools: [tool('a'), tool('b')] },
      },
    });
    await client.waitFor('session.started');
    client.send({
      type: 'session.update',
      event_id: 'u1',
      session: { delegation: { type: 'responses', responses: { tools: [tool('c')] } } },
    });
    client.send({ type: 'session.update', event_id: 'u2', session: { instructions: 'new' } as never });
    client.send({ type: 'session.update', event_id: 'u3', session: { delegation: { type: 'client' } } });
    await client.waitFor('error', 2);
    const updated = await client.waitFor('session.updated');
    expect(updated).toMatchObject({
      client_event_id: 'u1',
      session: {
        delegation: {
          type: 'responses',
          responses: { model: 'gpt-5.5', instructions: 'Use tools.', tools: [tool('c')] },
        },
      },
    });
    expect(client.ofType('error').map((e) => [e.client_event_id, e.error.param])).toEqual([
      ['u2', 'session.instructions'],
      ['u3', 'session.delegation.type'],
    ]);
  });
});
