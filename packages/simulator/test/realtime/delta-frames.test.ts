import type { RealtimeEvent } from '@parley/core';
import { describe, expect, test } from 'vitest';
import { connected } from './helpers.js';

const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');

/** What a frame must become: the seam events JSON.parse semantics give (the fast path must agree). */
const CASES: { name: string; frame: string; expected: RealtimeEvent[] }[] = [
  {
    name: 'GA audio delta with the fields the service adds',
    frame: `{"type":"response.output_audio.delta","event_id":"event_1","response_id":"r1","item_id":"i1","output_index":0,"content_index":0,"delta":"${b64([1, 2, 3, 4])}"}`,
    expected: [{ type: 'audio_delta', responseId: 'r1', itemId: 'i1', audio: new Uint8Array([1, 2, 3, 4]) }],
  },
  {
    name: 'keys in another order, type last',
    frame: `{"delta":"${b64([9, 8])}","item_id":"i1","response_id":"r1","type":"response.output_audio.delta"}`,
    expected: [{ type: 'audio_delta', responseId: 'r1', itemId: 'i1', audio: new Uint8Array([9, 8]) }],
  },
  {
    name: 'beta audio name, scalar extras of every kind',
    frame: `{"type":"response.audio.delta","flag":true,"none":null,"off":false,"x":-1.5e3,"response_id":"r1","item_id":"i1","delta":"${b64([7])}"}`,
    expected: [{ type: 'audio_delta', responseId: 'r1', itemId: 'i1', audio: new Uint8Array([7]) }],
  },
  {
    name: 'a nested value with a decoy key: the real item_id wins',
    frame: `{"type":"response.output_audio.delta","response_id":"r1","item_id":"i1","extra":{"item_id":"decoy"},"delta":"${b64([5])}"}`,
    expected: [{ type: 'audio_delta', responseId: 'r1', itemId: 'i1', audio: new Uint8Array([5]) }],
  },
  {
    name: 'an escaped slash inside the base64',
    frame: '{"type":"response.output_audio.delta","response_id":"r1","item_id":"i1","delta":"//8\\/"}',
    expected: [
      { type: 'audio_delta', responseId: 'r1', itemId: 'i1', audio: new Uint8Array([255, 255, 63]) },
    ],
  },
  {
    name: 'transcript delta with the obfuscation field',
    frame:
      '{"type":"response.output_audio_transcript.delta","event_id":"e","response_id":"r1","item_id":"i1","output_index":0,"content_index":0,"delta":" upon","obfuscation":"q2Xh"}',
    expected: [{ type: 'transcript_delta', responseId: 'r1', itemId: 'i1', delta: ' upon' }],
  },
  {
    name: 'transcript delta with escapes',
    frame:
      '{"type":"response.output_audio_transcript.delta","response_id":"r1","item_id":"i1","delta":"say \\"hi\\"\\n\\u00e9"}',
    expected: [{ type: 'transcript_delta', responseId: 'r1', itemId: 'i1', delta: 'say "hi"\né' }],
  },
  {
    name: 'transcript delta with raw non-ASCII text',
    frame:
      '{"type":"response.audio_transcript.delta","response_id":"r1","item_id":"i1","delta":"héllo 👋, {ok}: [1]"}',
    expected: [{ type: 'transcript_delta', responseId: 'r1', itemId: 'i1', delta: 'héllo 👋, {ok}: [1]' }],
  },
  {
    name: 'text deltas, GA and beta, with whitespace',
    frame: '{ "type": "response.output_text.delta", "response_id": "r1", "item_id": "i1", "delta": "a" }',
    expected: [{ type: 'text_delta', responseId: 'r1', itemId: 'i1', delta: 'a' }],
  },
  {
    name: 'beta text delta',
    frame: '{"type":"response.text.delta","response_id":"r1","item_id":"i1","delta":"b"}',
    expected: [{ type: 'text_delta', responseId: 'r1', itemId: 'i1', delta: 'b' }],
  },
  {
    name: 'a delta without an item id is ignored',
    frame: `{"type":"response.output_audio.delta","response_id":"r1","delta":"${b64([1])}"}`,
    expected: [],
  },
  {
    name: 'a delta that is not a string is ignored',
    frame: '{"type":"response.output_text.delta","response_id":"r1","item_id":"i1","delta":5}',
    expected: [],
  },
  {
    name: 'a later type key overrides the first, as in JSON.parse',
    frame:
      '{"type":"response.output_text.delta","response_id":"r1","item_id":"i1","delta":"x","type":"rate_limits.updated"}',
    expected: [],
  },
  {
    name: 'not JSON although it looks like a delta',
    frame:
      '{"type":"response.output_audio.delta","response_id":"r1","item_id":"i1","output_index":zero,"delta":"AQ=="}',
    expected: [
      {
        type: 'error',
        code: 'malformed_server_event',
        message: 'The Realtime service sent a frame that is not JSON; it was ignored.',
      },
    ],
  },
];

describe('delta frames (read without JSON.parse when they are plain)', () => {
  test.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, { frame, expected }) => {
    const { log, server } = await connected();
    server.sendRaw(frame);
    server.send({ type: 'input_audio_buffer.speech_stopped', item_id: 'marker', audio_end_ms: 1 });
    await log.waitFor('input_speech_stopped');
    expect(log.events.slice(1, -1)).toEqual(expected);
  });

  test('decoded chunks are independent, stay intact, and can be read as PCM16 samples', async () => {
    const { log, server } = await connected();
    const chunks = Array.from({ length: 40 }, (_, i) =>
      Array.from({ length: i % 3 === 0 ? 4_800 : 4_801 - i }, (_, j) => (i * 31 + j) & 0xff),
    );
    for (const bytes of chunks) {
      server.sendRaw(
        `{"type":"response.output_audio.delta","response_id":"r","item_id":"i","delta":"${b64(bytes)}"}`,
      );
    }
    await log.waitFor('audio_delta', chunks.length);
    const received = log.ofType('audio_delta').map((e) => e.audio);
    expect(received.map((audio) => [...audio])).toEqual(chunks);
    for (const audio of received) {
      expect(audio).toBeInstanceOf(Uint8Array);
      expect(Buffer.isBuffer(audio)).toBe(false);
      expect(audio.byteOffset % 8).toBe(0);
      const samples = new Int16Array(audio.buffer, audio.byteOffset, audio.byteLength >> 1);
      expect(samples.length).toBe(audio.byteLength >> 1);
    }
    // Writing into one chunk changes no other.
    received[0]?.fill(0);
    expect(received.slice(1).map((audio) => [...audio])).toEqual(chunks.slice(1));
  });
});
