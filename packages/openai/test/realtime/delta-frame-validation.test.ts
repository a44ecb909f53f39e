import type { RealtimeEvent } from '@parley/core';
import { describe, expect, test } from 'vitest';
import { connectFake } from './fake-socket.js';

/**
 * The delta fast path must agree with `JSON.parse`: a frame `JSON.parse` rejects is a malformed frame (one
 * `malformed_server_event` error, no delta), and a frame it accepts gives the events its parsed value gives. The
 * frames are fed through a fake socket, one at a time, so each frame's events are exactly what it produced: a
 * WHATWG-style socket that hands over text, and a `ws`-style one (a Node event emitter with `ping` and `terminate`)
 * that hands over each text frame's bytes as a `Buffer`, which the adapter reads without decoding it to text first
 * (a large frame as `latin1`). The `ws`-style fake does not validate UTF-8 as `ws` does, so the adapter must also
 * agree with `JSON.parse` of the decoded text on bytes that are not UTF-8.
 */

const DELTA_KINDS: Record<string, 'audio_delta' | 'transcript_delta' | 'text_delta'> = {
  'response.output_audio.delta': 'audio_delta',
  'response.audio.delta': 'audio_delta',
  'response.output_audio_transcript.delta': 'transcript_delta',
  'response.audio_transcript.delta': 'transcript_delta',
  'response.output_text.delta': 'text_delta',
  'response.text.delta': 'text_delta',
};

const MALFORMED = {
  type: 'error',
  code: 'malformed_server_event',
  message: 'The Realtime service sent a frame that is not JSON; it was ignored.',
};

/** The delta event a frame stands for under `JSON.parse` semantics, or `undefined` when it is not one. */
function oracle(frame: string): { parsed: boolean; delta?: RealtimeEvent } {
  let value: unknown;
  try {
    value = JSON.parse(frame);
  } catch {
    return { parsed: false };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { parsed: true };
  const event = value as Record<string, unknown>;
  const kind = typeof event.type === 'string' ? DELTA_KINDS[event.type] : undefined;
  const { response_id: responseId, item_id: itemId, delta } = event;
  if (kind === undefined || typeof responseId !== 'string' || typeof itemId !== 'string')
    return { parsed: true };
  if (typeof delta !== 'string') return { parsed: true };
  if (kind === 'audio_delta') {
    return {
      parsed: true,
      delta: { type: kind, responseId, itemId, audio: new Uint8Array(Buffer.from(delta, 'base64')) },
    };
  }
  return { parsed: true, delta: { type: kind, responseId, itemId, delta } };
}

const isDelta = (event: RealtimeEvent) =>
  event.type === 'audio_delta' || event.type === 'transcript_delta' || event.type === 'text_delta';

/** Checks one frame against the oracle; returns a description of the disagreement, or `undefined`. */
function disagreement(frame: string, events: RealtimeEvent[]): string | undefined {
  const expected = oracle(frame);
  const deltas = events
    .filter(isDelta)
    .map((e) => (e.type === 'audio_delta' ? { ...e, audio: [...e.audio] } : e));
  if (!expected.parsed) {
    const ok = events.length === 1 && JSON.stringify(events[0]) === JSON.stringify(MALFORMED);
    return ok ? undefined : `${JSON.stringify(frame)} is not JSON but gave ${JSON.stringify(events)}`;
  }
  const want =
    expected.delta === undefined
      ? []
      : [
          expected.delta.type === 'audio_delta'
            ? { ...expected.delta, audio: [...expected.delta.audio] }
            : expected.delta,
        ];
  return JSON.stringify(deltas) === JSON.stringify(want)
    ? undefined
    : `${JSON.stringify(frame)} gave deltas ${JSON.stringify(deltas)}, JSON.parse says ${JSON.stringify(want)}`;
}

const AUDIO = Buffer.from(Array.from({ length: 48 }, (_, i) => (i * 37) & 0xff)).toString('base64');
const BASES = [
  `{"type":"response.output_audio.delta","event_id":"event_1","response_id":"r1","item_id":"i1","output_index":0,"content_index":12,"delta":"${AUDIO}"}`,
  '{"type":"response.output_audio_transcript.delta","response_id":"r1","item_id":"i1","output_index":-1.5e3,"delta":" upon","obfuscation":"q2Xh"}',
  '{"delta":"hi","flag":true,"none":null,"off":false,"item_id":"i1","response_id":"r1","type":"response.output_text.delta"}',
];
/** Characters that break JSON in one place or another, and some that do not. */
const INSERTS = [
  '\n',
  '\t',
  '\u0000',
  '\u001f',
  ' ',
  '\\',
  '"',
  ',',
  ':',
  '}',
  '{',
  ']',
  '-',
  '+',
  '.',
  'e',
  '0',
  '9',
  'x',
  '=',
  'é',
];

/** A 1,200-byte chunk: its frame is large enough to be read as `latin1` from a `ws` socket's bytes. */
const LONG_AUDIO = Buffer.from(Array.from({ length: 1_200 }, (_, i) => (i * 101) & 0xff)).toString('base64');
const LONG_BASE = `{"type":"response.output_audio.delta","event_id":"event_2","response_id":"r1","item_id":"i1","output_index":0,"content_index":0,"delta":"${LONG_AUDIO}"}`;
/** Where the long frame is mutated: everywhere but inside its base64, where only both ends and the middle. */
const LONG_POSITIONS = (() => {
  const from = LONG_BASE.indexOf(LONG_AUDIO);
  const to = from + LONG_AUDIO.length;
  const middle = from + (LONG_AUDIO.length >> 1);
  const positions: number[] = [];
  for (let i = 0; i <= LONG_BASE.length; i++) {
    if (i <= from + 8 || i >= to - 8 || Math.abs(i - middle) <= 4) positions.push(i);
  }
  return positions;
})();

/** Bytes that are not UTF-8 on their own (a continuation byte, a lead byte without its continuation, 0xFF). */
const INVALID_UTF8 = [[0x80], [0xc3], [0xe2, 0x82], [0xff], [0xc3, 0xa9]];

/** Every truncation, every one-character deletion, every insertion of a troublesome character. */
function mutants(base: string, positions?: number[]): string[] {
  const out = new Set<string>();
  for (const i of positions ?? Array.from({ length: base.length + 1 }, (_, i) => i)) {
    out.add(base.slice(0, i));
    if (i < base.length) out.add(base.slice(0, i) + base.slice(i + 1));
    for (const c of INSERTS) out.add(base.slice(0, i) + c + base.slice(i));
  }
  out.add(`${base}}`);
  out.add(`${base}x`);
  out.add(`${base},`);
  out.add(` ${base}`);
  return [...out];
}

describe.each(['text', 'bytes'] as const)(
  'the delta fast path agrees with JSON.parse (%s frames)',
  (kind) => {
    test('every truncation, deletion and insertion of a troublesome character in delta frames', async () => {
      const { eventsOf } = await connectFake(kind);
      const failures: string[] = [];
      let rejected = 0;
      let deltas = 0;
      for (const [base, positions] of [
        ...BASES.map((b) => [b, undefined] as const),
        [LONG_BASE, LONG_POSITIONS] as const,
      ]) {
        expect(disagreement(base, eventsOf(base))).toBeUndefined();
        for (const frame of mutants(base, positions)) {
          const expected = oracle(frame);
          if (!expected.parsed) rejected++;
          if (expected.delta !== undefined) deltas++;
          const problem = disagreement(frame, eventsOf(frame));
          if (problem !== undefined) failures.push(problem);
        }
      }
      expect(rejected).toBeGreaterThan(1_000);
      expect(deltas).toBeGreaterThan(1_000);
      expect(failures.slice(0, 10)).toEqual([]);
    });

    test('bytes that are not UTF-8 anywhere in a frame: what JSON.parse makes of the decoded text', async () => {
      const { eventsOf } = await connectFake(kind);
      const failures: string[] = [];
      let deltas = 0;
      for (const [base, positions] of [
        ...BASES.map((b) => [b, undefined] as const),
        [LONG_BASE, LONG_POSITIONS] as const,
      ]) {
        const bytes = Buffer.from(base);
        for (const i of positions ?? Array.from({ length: bytes.length + 1 }, (_, i) => i)) {
          for (const insert of INVALID_UTF8) {
            const frame = Buffer.concat([bytes.subarray(0, i), Buffer.from(insert), bytes.subarray(i)]);
            const text = frame.toString();
            if (oracle(text).delta !== undefined) deltas++;
            const problem = disagreement(text, eventsOf(frame));
            if (problem !== undefined) failures.push(problem);
          }
        }
      }
      expect(deltas).toBeGreaterThan(100);
      expect(failures.slice(0, 10)).toEqual([]);
    });

    const head = '"type":"response.output_text.delta","response_id":"r1","item_id":"i1"';
    const audioHead = '"type":"response.output_audio.delta","response_id":"r1","item_id":"i1"';
    const cases: [string, string][] = [
      ['a raw line break inside the text delta', `{${head},"delta":"a\nb"}`],
      [
        'a raw tab inside an id',
        '{"type":"response.output_text.delta","response_id":"r\t1","item_id":"i1","delta":"a"}',
      ],
      ['a raw control character inside a key', `{${head},"de\u0001lta":"a","delta":"b"}`],
      [
        'a raw control character inside a value the fast path skips',
        `{${head},"event_id":"e\u0007","delta":"a"}`,
      ],
      ['a raw NUL inside the base64 audio', `{${audioHead},"delta":"AAAA\u0000AAA="}`],
      ['a raw line break inside the base64 audio', `{${audioHead},"delta":"AAAA\nAAAA"}`],
      ['a number with a leading zero', `{${head},"output_index":01,"delta":"a"}`],
      ['a number with a plus sign', `{${head},"output_index":+1,"delta":"a"}`],
      ['a number with a bare dot', `{${head},"output_index":1.,"delta":"a"}`],
      ['a number with an empty exponent', `{${head},"output_index":1e,"delta":"a"}`],
      ['a lone minus', `{${head},"output_index":-,"delta":"a"}`],
      ['two numbers run together', `{${head},"output_index":1-2,"delta":"a"}`],
      ['a bad escape', `{${head},"delta":"a\\qb"}`],
      ['an escape cut short', `{${head},"delta":"\\u12"}`],
      ['trailing garbage', `{${head},"delta":"a"}x`],
      ['a second closing brace', `{${head},"delta":"a"}}`],
      ['a trailing comma', `{${head},"delta":"a",}`],
      ['a truncated frame', `{${head},"delta":"a"`],
      ['a truncated string', `{${head},"delta":"a}`],
    ];
    test.each(cases)('%s is a malformed frame, not a delta', async (_name, frame) => {
      expect(() => JSON.parse(frame)).toThrow();
      const { eventsOf } = await connectFake(kind);
      expect(eventsOf(frame)).toEqual([MALFORMED]);
    });

    const valid: [string, string, RealtimeEvent[]][] = [
      ['a later delta of another type wins, as in JSON.parse', `{${head},"delta":"a","delta":5}`, []],
      ['a later item_id of another type wins', `{${head},"delta":"a","item_id":null}`, []],
      ['a later response_id of another type wins', `{${head},"delta":"a","response_id":{"id":"r2"}}`, []],
      [
        'a later string delta wins',
        `{${head},"delta":"a","delta":"b"}`,
        [{ type: 'text_delta', responseId: 'r1', itemId: 'i1', delta: 'b' }],
      ],
      [
        'a later audio delta wins',
        `{${audioHead},"delta":"AAAA","delta":"//8="}`,
        [{ type: 'audio_delta', responseId: 'r1', itemId: 'i1', audio: new Uint8Array([255, 255]) }],
      ],
      [
        'base64 with spaces is decoded as the full parse decodes it',
        `{${audioHead},"delta":"//8= "}`,
        [{ type: 'audio_delta', responseId: 'r1', itemId: 'i1', audio: new Uint8Array([255, 255]) }],
      ],
    ];
    test.each(valid)('%s', async (_name, frame, expected) => {
      const { eventsOf } = await connectFake(kind);
      const events = eventsOf(frame);
      expect(events).toEqual(expected);
    });

    test('a later type that is not a string makes the frame an event without a type', async () => {
      const { eventsOf } = await connectFake(kind);
      expect(eventsOf(`{${head},"delta":"a","type":7}`)).toEqual([
        {
          type: 'error',
          code: 'malformed_server_event',
          message: 'The Realtime service sent an event without a string "type"; it was ignored.',
        },
      ]);
    });
  },
);
