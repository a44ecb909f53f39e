import { ManualClock } from '@parley/mock';
import { createHold, decodeSpeechTexts, silenceAudio, speechAudio } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { simulator } from './helpers.js';
import { collapse, RawClient } from './raw-client.js';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const manualTurns = {
  type: 'session.update',
  session: { type: 'realtime', audio: { input: { turn_detection: null } } },
};

describe('simulator: input audio buffer', () => {
  test('commit needs 100 ms since the last commit; the committed item is an input_audio message', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send(manualTurns);
    client.send({ type: 'input_audio_buffer.commit', event_id: 'c0' });
    client.send({ type: 'input_audio_buffer.append', audio: b64(silenceAudio(99.5)) });
    client.send({ type: 'input_audio_buffer.commit', event_id: 'c1' });
    client.send({ type: 'input_audio_buffer.append', audio: b64(silenceAudio(0.5)) });
    client.send({ type: 'input_audio_buffer.commit', event_id: 'c2' });
    client.send({ type: 'input_audio_buffer.commit', event_id: 'c3' });
    await client.waitFor('error', 3);
    expect(client.ofType('error').map((e) => e.error)).toEqual([
      {
        type: 'invalid_request_error',
        code: 'input_audio_buffer_commit_empty',
        message:
          'Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has 0.00ms of audio.',
        param: null,
        event_id: 'c0',
      },
      expect.objectContaining({
        message: expect.stringContaining('buffer only has 99.50ms of audio'),
        event_id: 'c1',
      }),
      expect.objectContaining({ message: expect.stringContaining('buffer only has 0.00ms'), event_id: 'c3' }),
    ]);
    const committed = client.ofType('input_audio_buffer.committed');
    expect(committed).toEqual([
      {
        type: 'input_audio_buffer.committed',
        event_id: expect.any(String),
        previous_item_id: null,
        item_id: expect.stringMatching(/^item_/),
      },
    ]);
    const added = client.ofType('conversation.item.added')[0];
    expect(added?.item).toEqual({
      id: committed[0]?.item_id,
      object: 'realtime.item',
      type: 'message',
      role: 'user',
      status: 'completed',
      content: [{ type: 'input_audio', transcript: null }],
    });
    expect(sim.connections[0]?.conversation.audioMs(committed[0]?.item_id as string)).toBe(100);
    expect(client.ofType('response.created')).toEqual([]);
  });

  test('clear empties the buffer', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send(manualTurns);
    client.send({ type: 'input_audio_buffer.append', audio: b64(silenceAudio(200)) });
    client.send({ type: 'input_audio_buffer.clear' });
    client.send({ type: 'input_audio_buffer.commit' });
    await client.waitFor('error');
    expect(client.types()).toContain('input_audio_buffer.cleared');
    expect(sim.connections[0]?.inputBufferBytes).toBe(0);
  });

  test('speechAudio carries its text through chunked appends', () => {
    const pcm = speechAudio('hello there');
    expect(pcm.length).toBe(Math.max(300, 11 * 60) * 48);
    expect(decodeSpeechTexts(pcm)).toEqual(['hello there']);
    expect(decodeSpeechTexts(silenceAudio(500))).toEqual([]);
  });
});

describe('simulator: server VAD', () => {
  async function speak(client: RawClient, text: string, chunkMs = 40) {
    const audio = new Uint8Array([...silenceAudio(400), ...speechAudio(text), ...silenceAudio(400)]);
    for (let i = 0; i < audio.length; i += chunkMs * 48) {
      client.send({ type: 'input_audio_buffer.append', audio: b64(audio.subarray(i, i + chunkMs * 48)) });
    }
  }

  test('a spoken turn: speech started/stopped, commit, item, automatic response to what was said, transcription', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({
      type: 'session.update',
      session: {
        type: 'realtime',
        output_modalities: ['text'],
        audio: { input: { transcription: { model: 'whisper-1' } } },
      },
    });
    await speak(client, 'book a table');
    await client.waitFor('response.done');
    const started = client.ofType('input_audio_buffer.speech_started')[0];
    const stopped = client.ofType('input_audio_buffer.speech_stopped')[0];
    // speech begins at 400 ms; prefix padding is 300 ms; it stops after 200 ms of silence
    expect(started).toMatchObject({ audio_start_ms: 100, item_id: expect.stringMatching(/^item_/) });
    expect(stopped).toMatchObject({ audio_end_ms: 400 + 720 + 200, item_id: started?.item_id });
    expect(collapse(client.types(2))).toEqual([
      'input_audio_buffer.speech_started',
      'input_audio_buffer.speech_stopped',
      'input_audio_buffer.committed',
      'conversation.item.added',
      'conversation.item.done',
      'conversation.item.input_audio_transcription.delta',
      'conversation.item.input_audio_transcription.completed',
      'response.created',
      'response.output_item.added',
      'conversation.item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'conversation.item.done',
      'response.done',
      'rate_limits.updated',
    ]);
    expect(client.ofType('input_audio_buffer.committed')[0]?.item_id).toBe(started?.item_id);
    expect(client.ofType('conversation.item.input_audio_transcription.completed')[0]).toMatchObject({
      item_id: started?.item_id,
      transcript: 'book a table',
    });
    expect(client.ofType('response.done')[0]?.response).toMatchObject({
      output: [{ content: [{ type: 'output_text', text: 'You said: book a table' }] }],
    });
  });

  test('barge-in cancels the active default response (turn_detected) but not an out-of-band one', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    const talk = createHold();
    const side = createHold();
    sim.script({ type: 'message', text: ['I will talk ', talk, 'for a long time'] }, [
      { type: 'hold', hold: side },
      'side',
    ]);
    client.send({ type: 'response.create' });
    client.send({ type: 'response.create', response: { conversation: 'none' } });
    await Promise.all([talk.reached, side.reached]);
    const server = await sim.waitForConnection();
    const at = server.serverEvents.length;
    client.send({ type: 'input_audio_buffer.append', audio: b64(speechAudio('stop')) });
    await client.waitFor('response.done');
    expect(server.serverEvents.slice(at).map((e) => e.type)).toEqual([
      'input_audio_buffer.speech_started',
      'response.output_audio.done',
      'response.output_audio_transcript.done',
      'response.content_part.done',
      'response.output_item.done',
      'conversation.item.done',
      'response.done',
      'rate_limits.updated',
    ]);
    expect(client.ofType('response.done')[0]?.response).toMatchObject({
      status: 'cancelled',
      status_details: { type: 'cancelled', reason: 'turn_detected' },
    });
    expect(server.activeResponses.map((r) => r.conversation)).toEqual(['none']);
    side.release();
    talk.release();
    await client.waitFor('response.done', 2);
  });

  test('with interrupt_response off the response continues, and the auto-response at speech stop is refused', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({
      type: 'session.update',
      session: {
        type: 'realtime',
        audio: { input: { turn_detection: { type: 'server_vad', interrupt_response: false } } },
      },
    });
    const hold = createHold();
    sim.script([{ type: 'hold', hold }, 'first']);
    client.send({ type: 'response.create' });
    await hold.reached;
    await speak(client, 'hi');
    const error = await client.waitFor('error');
    expect(error.error).toMatchObject({ code: 'conversation_already_has_active_response', event_id: null });
    expect(client.ofType('response.done')).toEqual([]);
    hold.release();
    expect((await client.waitFor('response.done')).response).toMatchObject({ status: 'completed' });
  });

  test('with create_response off VAD commits but starts nothing', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({
      type: 'session.update',
      session: {
        type: 'realtime',
        audio: {
          input: { turn_detection: { type: 'server_vad', create_response: false, silence_duration_ms: 300 } },
        },
      },
    });
    await speak(client, 'hello');
    await client.waitFor('conversation.item.done');
    client.send({ type: 'input_audio_buffer.clear' });
    await client.waitFor('input_audio_buffer.cleared');
    expect(client.ofType('response.created')).toEqual([]);
    expect(client.ofType('input_audio_buffer.speech_stopped')[0]?.audio_end_ms).toBe(400 + 300 + 300);
  });
});

describe('simulator: truncation bookkeeping at 48 bytes/ms', () => {
  test('truncate within the audio works and shortens the transcript; beyond it fails like the service', async () => {
    const sim = await simulator({ msPerChar: 10 });
    const client = await RawClient.connect(sim);
    sim.script('abcdefghij'); // 100 ms
    client.send({ type: 'response.create' });
    const done = await client.waitFor('response.done');
    const itemId = (done.response as { output: { id: string }[] }).output[0]?.id;
    client.send({
      type: 'conversation.item.truncate',
      item_id: itemId,
      content_index: 0,
      audio_end_ms: 101,
      event_id: 'too_far',
    });
    client.send({ type: 'conversation.item.truncate', item_id: itemId, content_index: 0, audio_end_ms: 50 });
    client.send({
      type: 'conversation.item.truncate',
      item_id: itemId,
      content_index: 0,
      audio_end_ms: 60,
      event_id: 'again',
    });
    await client.waitFor('error', 2);
    expect(client.ofType('error').map((e) => e.error)).toEqual([
      {
        type: 'invalid_request_error',
        code: 'invalid_value',
        message: 'Audio content of 100ms is already shorter than 101ms',
        param: 'audio_end_ms',
        event_id: 'too_far',
      },
      expect.objectContaining({
        message: 'Audio content of 50ms is already shorter than 60ms',
        event_id: 'again',
      }),
    ]);
    expect(client.ofType('conversation.item.truncated')).toEqual([
      {
        type: 'conversation.item.truncated',
        event_id: expect.any(String),
        item_id: itemId,
        content_index: 0,
        audio_end_ms: 50,
      },
    ]);
    const item = sim.connections[0]?.conversation.get(itemId as string);
    expect(item).toMatchObject({ content: [{ type: 'output_audio', transcript: 'abcde' }] });
  });

  test('only assistant audio can be truncated', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({
      type: 'conversation.item.create',
      item: { type: 'message', id: 'u', role: 'user', content: [{ type: 'input_text', text: 'x' }] },
    });
    client.send({
      type: 'conversation.item.truncate',
      item_id: 'u',
      content_index: 0,
      audio_end_ms: 0,
      event_id: 't',
    });
    expect((await client.waitFor('error')).error).toMatchObject({
      code: 'invalid_value',
      message: 'Only model output audio messages can be truncated.',
      event_id: 't',
    });
  });

  test('the voice is locked once assistant audio exists (the same voice is fine)', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({
      type: 'session.update',
      session: { type: 'realtime', audio: { output: { voice: 'ash' } } },
    });
    client.send({ type: 'response.create' });
    await client.waitFor('response.done');
    client.send({
      type: 'session.update',
      session: { type: 'realtime', audio: { output: { voice: 'ash' } } },
    });
    client.send({
      type: 'session.update',
      event_id: 'v',
      session: { type: 'realtime', audio: { output: { voice: 'echo' } } },
    });
    await client.waitFor('error');
    expect(client.ofType('session.updated')).toHaveLength(2);
    expect(client.ofType('error')[0]?.error).toMatchObject({ code: 'cannot_update_voice', event_id: 'v' });
  });
});

describe('simulator: session lifetime', () => {
  test('at the limit: session_expired (no event_id), then close 1001; timers are cleared', async () => {
    const clock = new ManualClock();
    const sim = await simulator({ clock, sessionLimitMs: 60 * 60_000 });
    const client = await RawClient.connect(sim);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(60 * 60_000);
    const closed = await client.closed;
    expect(client.events.at(-1)).toEqual({
      type: 'error',
      event_id: expect.any(String),
      error: {
        type: 'invalid_request_error',
        code: 'session_expired',
        message: 'Your session hit the maximum duration of 60 minutes.',
        param: null,
        event_id: null,
      },
    });
    expect(closed).toEqual({ code: 1001, reason: 'Your session hit the maximum duration of 60 minutes.' });
    await sim.waitForIdle();
    expect(clock.pendingTimers).toBe(0);
  });

  test('a client that leaves clears its session timer', async () => {
    const clock = new ManualClock();
    const sim = await simulator({ clock });
    const client = await RawClient.connect(sim);
    await client.close();
    await sim.waitForIdle();
    expect(clock.pendingTimers).toBe(0);
  });

  test('close() closes every client with 1001 and stops listening', async () => {
    const sim = await simulator();
    const clients = [await RawClient.connect(sim), await RawClient.connect(sim)];
    await sim.close();
    expect(await Promise.all(clients.map((c) => c.closed))).toEqual([
      { code: 1001, reason: 'simulator closed' },
      { code: 1001, reason: 'simulator closed' },
    ]);
    expect(sim.openConnections).toBe(0);
    await expect(RawClient.connect(sim)).rejects.toThrow(/ECONNREFUSED/);
    await sim.close();
  });
});
