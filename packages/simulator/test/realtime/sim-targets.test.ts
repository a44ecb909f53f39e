import { OpenAIRealtimeModel } from '@parley/openai';
import { describe, expect, test } from 'vitest';
import { API_KEY, EventLog, modelFor, sent, simulator } from './helpers.js';
import { RawClient } from './raw-client.js';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const silence = (ms: number) => b64(new Uint8Array(ms * 48));

describe('simulator: idle_timeout_ms', () => {
  test('silence for idle_timeout_ms after a response: timeout_triggered, the silent audio committed, a response', async () => {
    const sim = await simulator();
    const client = await RawClient.configured(sim, {
      audio: { input: { turn_detection: { type: 'server_vad', idle_timeout_ms: 5000 } } },
    });
    client.send({ type: 'input_audio_buffer.append', audio: silence(4900) });
    client.send({ type: 'input_audio_buffer.append', audio: silence(99) });
    await client.waitFor('session.updated');
    const server = await sim.waitForConnection(0);
    await server.waitForClientEvent('input_audio_buffer.append', 2);
    expect(client.ofType('input_audio_buffer.timeout_triggered')).toEqual([]);
    sim.script('Are you still there?');
    client.send({ type: 'input_audio_buffer.append', audio: silence(101) });
    const triggered = await client.waitFor('input_audio_buffer.timeout_triggered');
    expect(triggered).toMatchObject({
      audio_start_ms: 0,
      audio_end_ms: 5100,
      item_id: expect.stringMatching(/^item_/),
    });
    const committed = await client.waitFor('input_audio_buffer.committed');
    expect(committed.item_id).toBe(triggered.item_id);
    expect(server.conversation.audioMs(String(triggered.item_id))).toBe(5100);
    const done = await client.waitFor('response.done');
    expect(done.response).toMatchObject({ status: 'completed' });
    // The next idle period counts from the end of that response.
    client.send({ type: 'input_audio_buffer.append', audio: silence(4999) });
    await server.waitForClientEvent('input_audio_buffer.append', 4);
    expect(client.ofType('input_audio_buffer.timeout_triggered')).toHaveLength(1);
    client.send({ type: 'input_audio_buffer.append', audio: silence(1) });
    const again = await client.waitFor('input_audio_buffer.timeout_triggered', 2);
    expect(again).toMatchObject({ audio_start_ms: 5100, audio_end_ms: 10_100 });
  });

  test('without idle_timeout_ms (the default null), silence never triggers', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({ type: 'input_audio_buffer.append', audio: silence(31_000) });
    const server = await sim.waitForConnection(0);
    await server.waitForClientEvent('input_audio_buffer.append');
    expect(client.ofType('input_audio_buffer.timeout_triggered')).toEqual([]);
    expect(server.inputBufferBytes).toBe(31_000 * 48);
  });
});

describe('simulator: connection targets', () => {
  test('?intent=transcription: a transcription session, input transcription, no responses', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim, { path: '/v1/realtime?intent=transcription' });
    const session = client.events[0]?.session as Record<string, unknown>;
    expect(session).toMatchObject({
      type: 'transcription',
      object: 'realtime.transcription_session',
      audio: {
        input: {
          format: { type: 'audio/pcm', rate: 24000 },
          turn_detection: { type: 'server_vad', threshold: 0.5, interrupt_response: true },
        },
      },
    });
    expect(session).not.toHaveProperty('instructions');
    client.send({
      type: 'session.update',
      event_id: 'wrong',
      session: { type: 'realtime', instructions: 'x' },
    });
    expect((await client.waitFor('error')).error).toMatchObject({
      message: 'Passing a realtime session update event to a transcription session is not allowed.',
      event_id: 'wrong',
    });
    client.send({
      type: 'session.update',
      session: { type: 'transcription', audio: { input: { transcription: { model: 'gpt-4o-transcribe' } } } },
    });
    const updated = await client.waitFor('session.updated');
    expect(updated.session).toMatchObject({
      audio: { input: { transcription: { model: 'gpt-4o-transcribe' } } },
    });
    client.send({ type: 'response.create', event_id: 'no_responses' });
    expect((await client.waitFor('error', 2)).error).toMatchObject({
      code: 'invalid_value',
      param: 'type',
      event_id: 'no_responses',
    });
    const server = await sim.waitForConnection(0);
    expect(server.targetKind).toBe('transcription');
    server.startSpeech();
    server.stopSpeech({ transcript: 'hello there' });
    const completed = await client.waitFor('conversation.item.input_audio_transcription.completed');
    expect(completed.transcript).toBe('hello there');
    expect(client.ofType('response.created')).toEqual([]);
  });

  test('?call_id= attaches to an existing call: its session and conversation outlive each connection', async () => {
    const sim = await simulator();
    const callId = sim.createCall({ session: { instructions: 'You answer the phone.' } });
    expect(callId).toMatch(/^rtc_/);
    const first = await RawClient.connect(sim, { path: `/v1/realtime?call_id=${callId}` });
    expect(first.events[0]?.session).toMatchObject({
      type: 'realtime',
      instructions: 'You answer the phone.',
    });
    first.send({
      type: 'conversation.item.create',
      item: {
        id: 'item_caller',
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'Hello?' }],
      },
    });
    first.send({ type: 'session.update', session: { type: 'realtime', instructions: 'Be polite.' } });
    await first.waitFor('session.updated');
    await first.close();
    const second = await RawClient.connect(sim, { path: `/v1/realtime?call_id=${callId}` });
    expect(second.events[0]?.session).toMatchObject({ instructions: 'Be polite.' });
    second.send({ type: 'conversation.item.retrieve', item_id: 'item_caller' });
    expect((await second.waitFor('conversation.item.retrieved')).item).toMatchObject({ id: 'item_caller' });
    expect(sim.connections[1]?.targetKind).toBe('call');
  });

  test.each([
    ['/v1/realtime?call_id=rtc_unknown', 404],
    ['/v1/realtime?model=gpt-realtime&call_id=rtc_x', 400],
    ['/v1/realtime?model=gpt-realtime&intent=transcription', 400],
    ['/v1/realtime?intent=translation', 400],
  ])('an upgrade to %s is refused with %i', async (path, status) => {
    const sim = await simulator();
    await expect(RawClient.connect(sim, { path })).rejects.toThrow(String(status));
    expect(sim.upgrades.at(-1)?.status).toBe(status);
  });
});

describe('OpenAIRealtimeModel targets', () => {
  test("intent: 'transcription' opens a transcription session and sends transcription session updates", async () => {
    const sim = await simulator();
    const model = modelFor(sim, { intent: 'transcription' });
    const connection = await model.connect({
      config: { inputTranscription: { model: 'gpt-4o-transcribe' } },
    });
    const log = new EventLog(connection);
    const server = await sim.waitForConnection(0);
    expect(server.path).toBe('/v1/realtime?intent=transcription');
    const update = sent(server, 'session.update')[0];
    expect(update?.session).toEqual({
      type: 'transcription',
      audio: {
        input: {
          format: { type: 'audio/pcm', rate: 24000 },
          transcription: { model: 'gpt-4o-transcribe' },
        },
      },
    });
    expect(server.serverEvents.filter((e) => e.type === 'error')).toEqual([]);
    server.startSpeech();
    server.stopSpeech({ transcript: 'order status' });
    const transcription = await log.waitFor((e) => e.type === 'input_transcription' && e.final);
    expect(transcription).toMatchObject({ text: 'order status', final: true });
    await connection.close();
  });

  test('callId attaches to an existing call', async () => {
    const sim = await simulator();
    const callId = sim.createCall({ session: { instructions: 'Phone agent.' } });
    const connection = await modelFor(sim, { callId }).connect({ config: { voice: 'marin' } });
    const server = await sim.waitForConnection(0);
    expect(server.path).toBe(`/v1/realtime?call_id=${callId}`);
    expect(server.targetKind).toBe('call');
    await server.waitForServerEvent('session.updated');
    expect(server.session).toMatchObject({
      instructions: 'Phone agent.',
      audio: { output: { voice: 'marin' } },
    });
    await connection.close();
  });

  test.each([
    [{ model: 'gpt-realtime', callId: 'rtc_1' }, 'model and callId'],
    [{ intent: 'transcription' as const, callId: 'rtc_1' }, 'intent and callId'],
    [{ model: 'gpt-realtime', intent: 'transcription' as const }, 'model and intent'],
    [{ callId: 'rtc_1', url: 'ws://127.0.0.1:1/v1/realtime?model=gpt-realtime' }, 'callId and url ?model='],
  ])('an ambiguous target is refused before connecting: %j', (options, named) => {
    expect(() => new OpenAIRealtimeModel({ apiKey: API_KEY, ...options })).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining(`Ambiguous realtime target: ${named} both name what to open.`),
      }),
    );
  });

  test('a bad intent or callId is refused before connecting', () => {
    expect(() => new OpenAIRealtimeModel({ apiKey: API_KEY, intent: 'translation' as never })).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining("intent must be 'transcription'"),
      }),
    );
    expect(() => new OpenAIRealtimeModel({ apiKey: API_KEY, callId: 'rtc 1' })).toThrow(
      expect.objectContaining({ code: 'invalid_option', message: expect.stringContaining('callId must be') }),
    );
  });
});
