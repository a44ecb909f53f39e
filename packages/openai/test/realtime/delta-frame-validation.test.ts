import type { RealtimeConnection, RealtimeEvent } from '@parley/core';
import { OpenAIRealtimeModel } from '@parley/openai';
import { afterEach, describe, expect, test } from 'vitest';

/**
 * The delta fast path must agree with `JSON.parse`: a frame `JSON.parse` rejects is a malformed frame (one
 * `malformed_server_event` error, no delta), and a frame it accepts gives the events its parsed value gives. The
 * frames are fed through a fake socket, one at a time, so each frame's events are exactly what it produced.
 */

type Listener = (event: unknown) => void;

/** A WHATWG-style socket that completes the handshake by itself and lets the test push frames. */
class FakeSocket {
  static last: FakeSocket | undefined;
  readyState = 0;
  binaryType = 'blob';
  readonly #listeners = new Map<string, Set<Listener>>();

  constructor(_url: string, _init: unknown) {
    FakeSocket.last = this;
    queueMicrotask(() => {
      this.readyState = 1;
      this.#fire('open', {});
      this.receive(JSON.stringify({ type: 'session.created', session: {} }));
    });
  }

  addEventListener(type: string, listener: Listener): void {
    const set = this.#listeners.get(type) ?? new Set<Listener>();
    this.#listeners.set(type, set.add(listener));
  }

  removeEventListener(type: string, listener: Listener): void {
    this.#listeners.get(type)?.delete(listener);
  }

  send(data: string): void {
    const event = JSON.parse(data) as { type: string; session?: unknown };
    if (event.type === 'session.update') {
      queueMicrotask(() => this.receive(JSON.stringify({ type: 'session.updated', session: event.session })));
    }
  }

  close(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    queueMicrotask(() => this.#fire('close', { code: 1000, reason: '' }));
  }

  /** Delivers one text frame, as the socket does. */
  receive(frame: string): void {
    this.#fire('message', { data: frame });
  }

  #fire(type: string, event: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
}

const connections: RealtimeConnection[] = [];
afterEach(async () => {
  while (connections.length > 0) await connections.pop()?.close();
});

async function connectFake(): Promise<{ socket: FakeSocket; eventsOf: (frame: string) => RealtimeEvent[] }> {
  const model = new OpenAIRealtimeModel({
    apiKey: 'sk-test-fuzz',
    url: 'ws://fake.invalid/v1/realtime',
    WebSocket: FakeSocket as never,
    webSocketStyle: 'headers-init',
  });
  const connection = await model.connect({ config: {} });
  connections.push(connection);
  const socket = FakeSocket.last as FakeSocket;
  const received: RealtimeEvent[] = [];
  connection.onEvent((event) => received.push(event));
  return {
    socket,
    eventsOf(frame) {
      received.length = 0;
      socket.receive(frame);
      return received.splice(0);
    },
  };
}

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

/** Every truncation, every one-character deletion, every insertion of a troublesome character. */
function mutants(base: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i <= base.length; i++) {
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

describe('the delta fast path agrees with JSON.parse', () => {
  test('every truncation, deletion and insertion of a troublesome character in delta frames', async () => {
    const { eventsOf } = await connectFake();
    const failures: string[] = [];
    let rejected = 0;
    for (const base of BASES) {
      expect(disagreement(base, eventsOf(base))).toBeUndefined();
      for (const frame of mutants(base)) {
        if (!oracle(frame).parsed) rejected++;
        const problem = disagreement(frame, eventsOf(frame));
        if (problem !== undefined) failures.push(problem);
      }
    }
    expect(rejected).toBeGreaterThan(1_000);
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
    const { eventsOf } = await connectFake();
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
    const { eventsOf } = await connectFake();
    const events = eventsOf(frame);
    expect(events).toEqual(expected);
  });

  test('a later type that is not a string makes the frame an event without a type', async () => {
    const { eventsOf } = await connectFake();
    expect(eventsOf(`{${head},"delta":"a","type":7}`)).toEqual([
      {
        type: 'error',
        code: 'malformed_server_event',
        message: 'The Realtime service sent an event without a string "type"; it was ignored.',
      },
    ]);
  });
});
