const encodeBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

import { silenceAudio, speechAudio, toSessionAudio } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { simulator } from './helpers.js';
import { RawClient, type ServerEvent } from './raw-client.js';

const decodedLength = (events: ServerEvent[]) =>
  events.reduce((n, e) => n + Buffer.from(String(e.delta), 'base64').length, 0);

async function g711Session(type: 'audio/pcmu' | 'audio/pcma', turnDetection: unknown = null) {
  const sim = await simulator();
  const client = await RawClient.configured(sim, {
    audio: {
      input: { format: { type }, turn_detection: turnDetection, transcription: { model: 'whisper-1' } },
      output: { format: { type } },
    },
  });
  return { sim, client, server: await sim.waitForConnection(0) };
}

describe('simulator: audio formats end to end', () => {
  test.each(['audio/pcmu', 'audio/pcma'] as const)(
    '%s: output audio is 8 bytes per ms, the format is echoed, truncation is bounded by it',
    async (type) => {
      const { sim, client, server } = await g711Session(type);
      sim.script({ type: 'message', text: 'Hello there.', audioMs: 1000 });
      client.send({ type: 'response.create' });
      const done = await client.waitFor('response.done');
      const created = client.ofType('response.created')[0]?.response as Record<string, unknown>;
      for (const response of [created, done.response as Record<string, unknown>]) {
        expect(response.audio).toEqual({ output: { format: { type }, voice: 'alloy' } });
      }
      const deltas = client.ofType('response.output_audio.delta');
      expect(decodedLength(deltas)).toBe(8000);
      // 100 ms deltas: 800 bytes each.
      expect(Buffer.from(String(deltas[0]?.delta), 'base64').length).toBe(800);
      const itemId = String(deltas[0]?.item_id);
      client.send({
        type: 'conversation.item.truncate',
        item_id: itemId,
        content_index: 0,
        audio_end_ms: 1001,
      });
      const error = await client.waitFor('error');
      expect(error.error).toMatchObject({
        code: 'invalid_value',
        param: 'audio_end_ms',
        message: 'Audio content of 1000ms is already shorter than 1001ms',
      });
      client.send({
        type: 'conversation.item.truncate',
        item_id: itemId,
        content_index: 0,
        audio_end_ms: 400,
      });
      expect(await client.waitFor('conversation.item.truncated')).toMatchObject({ audio_end_ms: 400 });
      expect(server.conversation.audioBytes(itemId)).toHaveLength(3200);
    },
  );

  test.each([
    ['audio/pcm', 48],
    ['audio/pcmu', 8],
    ['audio/pcma', 8],
  ] as const)('%s: a commit needs 100 ms of audio (%i bytes per ms)', async (type, bytesPerMs) => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({
      type: 'session.update',
      session: { type: 'realtime', audio: { input: { format: { type }, turn_detection: null } } },
    });
    await client.waitFor('session.updated');
    client.send({
      type: 'input_audio_buffer.append',
      audio: encodeBase64(new Uint8Array(100 * bytesPerMs - 1)),
    });
    client.send({ type: 'input_audio_buffer.commit', event_id: 'short' });
    const error = await client.waitFor('error');
    expect(error.error).toMatchObject({ code: 'input_audio_buffer_commit_empty', event_id: 'short' });
    expect(String((error.error as { message: string }).message)).toMatch(
      /buffer only has 99\.\d\dms of audio/,
    );
    client.send({ type: 'input_audio_buffer.append', audio: encodeBase64(new Uint8Array(1)) });
    client.send({ type: 'input_audio_buffer.commit' });
    const committed = await client.waitFor('input_audio_buffer.committed');
    const server = await sim.waitForConnection(0);
    expect(server.conversation.audioMs(String(committed.item_id))).toBe(100);
  });

  test('G.711 speech: the VAD hears it, commits it with its length, transcription reports its duration', async () => {
    const { sim, client, server } = await g711Session('audio/pcmu', {
      type: 'server_vad',
      create_response: false,
    });
    sim.script('unused');
    const speech = toSessionAudio(speechAudio('hello there', { durationMs: 1200 }), { type: 'audio/pcmu' });
    const silence = toSessionAudio(silenceAudio(600), { type: 'audio/pcmu' });
    expect(speech).toHaveLength(1200 * 8);
    client.send({ type: 'input_audio_buffer.append', audio: encodeBase64(speech) });
    client.send({ type: 'input_audio_buffer.append', audio: encodeBase64(silence) });
    const stopped = await client.waitFor('input_audio_buffer.speech_stopped');
    const started = client.ofType('input_audio_buffer.speech_started')[0];
    expect(started?.audio_start_ms).toBe(0);
    expect(stopped.audio_end_ms).toBeGreaterThanOrEqual(1200);
    expect(stopped.audio_end_ms).toBeLessThanOrEqual(1500);
    const completed = await client.waitFor('conversation.item.input_audio_transcription.completed');
    expect(completed.usage).toEqual({ type: 'duration', seconds: 2 });
    // The committed buffer (everything appended: 1200 ms of speech and 600 ms of silence) counted at 8 bytes/ms.
    expect(server.conversation.audioMs(String(stopped.item_id))).toBe(1800);
  });

  test('response.audio.output.format overrides the session format for one response', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    sim.script({ type: 'message', text: 'Hi.', audioMs: 500 });
    client.send({
      type: 'response.create',
      response: { audio: { output: { format: { type: 'audio/pcma' }, voice: 'marin' } } },
    });
    const done = await client.waitFor('response.done');
    expect(done.response).toMatchObject({
      audio: { output: { format: { type: 'audio/pcma' }, voice: 'marin' } },
    });
    expect(decodedLength(client.ofType('response.output_audio.delta'))).toBe(4000);
    client.send({
      type: 'response.create',
      response: { audio: { output: { format: { type: 'audio/opus' } } } },
    });
    const error = await client.waitFor('error');
    expect(error.error).toMatchObject({ code: 'invalid_value', param: 'response.audio.output.format.type' });
  });
});
