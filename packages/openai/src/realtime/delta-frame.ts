/**
 * The hot path: the delta frames that make up nearly all of a response's traffic (audio, its transcript, text) are
 * read with a small scanner for flat JSON objects instead of `JSON.parse`. It walks the keys once with `indexOf`,
 * keeps the string values it needs as slices of the frame (the base64 audio is never copied), and works whatever the
 * key order. Anything it does not fully understand (an escape anywhere, a nested value, whitespace, another event
 * type) returns `undefined`, and the caller parses the frame normally.
 *
 * What it accepts, `JSON.parse` accepts with the same meaning: numbers follow the JSON grammar, no string holds a raw
 * control character, and a read key repeated with a value of another type is left to the full parse (the last
 * value wins there). The one exception is the audio's base64, which is not scanned here: the caller decodes it
 * with `decodeBase64(…, true)`, which accepts only well-formed base64 (so no control character either) and otherwise
 * sends the frame to the full parse too.
 */

import type { EventSink, NodeTextFrame } from '@parley/transport';
import { decodeBase64 } from '../shared/base64.js';

/** Which delta a frame carries. */
export type DeltaKind = 'audio' | 'transcript' | 'text';

/** The fields of a delta frame read by the fast path. For `audio`, `delta` is still base64. */
export interface DeltaFrame {
  kind: DeltaKind;
  /** For `audio`, not yet checked: decode it with `decodeBase64(…, true)`. */
  responseId: string;
  itemId: string;
  delta: string;
}

/** The delta event types (GA and beta names), by length: no two have the same. */
const KINDS_BY_LENGTH: readonly (readonly [string, DeltaKind] | undefined)[] = (() => {
  const table: (readonly [string, DeltaKind] | undefined)[] = [];
  for (const [type, kind] of [
    ['response.output_audio.delta', 'audio'],
    ['response.audio.delta', 'audio'],
    ['response.output_audio_transcript.delta', 'transcript'],
    ['response.audio_transcript.delta', 'transcript'],
    ['response.output_text.delta', 'text'],
    ['response.text.delta', 'text'],
  ] as const) {
    table[type.length] = [type, kind];
  }
  return table;
})();

const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACKET = 91;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

const MINUS = 45;
const PLUS = 43;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const LOWER_E = 101;
const UPPER_E = 69;
const SPACE = 32;

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/** The end of the digits that start at `from` (`from` itself when there are none). */
function digitsEnd(frame: string, from: number, to: number): number {
  let i = from;
  while (i < to && isDigit(frame.charCodeAt(i))) i++;
  return i;
}

/** `true` when `frame[from, to)` is a JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
function isNumber(frame: string, from: number, to: number): boolean {
  let i = frame.charCodeAt(from) === MINUS ? from + 1 : from;
  if (i >= to) return false;
  const first = frame.charCodeAt(i);
  if (first === ZERO) i++;
  else if (isDigit(first)) i = digitsEnd(frame, i + 1, to);
  else return false;
  if (i < to && frame.charCodeAt(i) === DOT) {
    const fraction = i + 1;
    i = digitsEnd(frame, fraction, to);
    if (i === fraction) return false;
  }
  const e = i < to ? frame.charCodeAt(i) : 0;
  if (e === LOWER_E || e === UPPER_E) {
    i++;
    const sign = i < to ? frame.charCodeAt(i) : 0;
    if (sign === PLUS || sign === MINUS) i++;
    const exponent = i;
    i = digitsEnd(frame, exponent, to);
    if (i === exponent) return false;
  }
  return i === to;
}

/**
 * `true` when a value that is not a string may be skipped: `frame[from, to)` is `true`, `false`, `null` or a JSON
 * number, under a key the fast path does not read (`keyLength` characters from `keyFrom`). A read key repeated with
 * a value of another type is left to the full parse: `JSON.parse` keeps the last value, which is not a string.
 */
function isSkippedScalar(
  frame: string,
  keyFrom: number,
  keyLength: number,
  from: number,
  to: number,
): boolean {
  switch (keyLength) {
    case 4:
      if (frame.startsWith('type', keyFrom)) return false;
      break;
    case 5:
      if (frame.startsWith('delta', keyFrom)) return false;
      break;
    case 7:
      if (frame.startsWith('item_id', keyFrom)) return false;
      break;
    case 11:
      if (frame.startsWith('response_id', keyFrom)) return false;
      break;
  }
  const length = to - from;
  if (length === 4) {
    if (frame.startsWith('true', from) || frame.startsWith('null', from)) return true;
  } else if (length === 5 && frame.startsWith('false', from)) {
    return true;
  }
  return length > 0 && isNumber(frame, from, to);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding raw control characters is the point.
const CONTROL_CHARACTER = /[\u0000-\u001f]/;
// Control characters and anything past ASCII.
const CONTROL_OR_NON_ASCII = /[^\u0020-\u007f]/;
const NON_ASCII = 0x80;

/**
 * `true` when `frame[from, to)` holds a character JSON strings may not hold raw (U+0000 to U+001F), or, with
 * `asciiOnly`, any character past ASCII. The regular expression scans natively, a few times faster than a
 * `charCodeAt` loop past a few dozen characters.
 */
function hasRefusedCharacter(frame: string, from: number, to: number, asciiOnly: boolean): boolean {
  if (to - from < 24) {
    for (let i = from; i < to; i++) {
      const c = frame.charCodeAt(i);
      if (c < SPACE || (asciiOnly && c >= NON_ASCII)) return true;
    }
    return false;
  }
  const text = from === 0 && to === frame.length ? frame : frame.slice(from, to);
  return (asciiOnly ? CONTROL_OR_NON_ASCII : CONTROL_CHARACTER).test(text);
}

/**
 * Reads a delta frame, or returns `undefined` when `frame` is anything else (or unusual). With `asciiOnly` (for a
 * frame decoded from its bytes as `latin1`, one character per byte) it also refuses any character past ASCII
 * outside the audio's base64 (which its decoder refuses there): what it accepts then reads the same as the frame's
 * UTF-8 text.
 */
export function readDeltaFrame(frame: string, asciiOnly = false): DeltaFrame | undefined {
  const last = frame.length - 1;
  if (frame.charCodeAt(0) !== OPEN_BRACE || frame.charCodeAt(last) !== CLOSE_BRACE) return undefined;
  // Without escapes every string value is the text between two quotes.
  if (frame.indexOf('\\') !== -1) return undefined;
  let kind: DeltaKind | undefined;
  let responseId: string | undefined;
  let itemId: string | undefined;
  let delta: string | undefined;
  let deltaFrom = last;
  let deltaTo = last;
  let at = 1;
  for (;;) {
    if (frame.charCodeAt(at) !== QUOTE) return undefined;
    const keyEnd = frame.indexOf('"', at + 1);
    if (keyEnd === -1 || frame.charCodeAt(keyEnd + 1) !== COLON) return undefined;
    const valueAt = keyEnd + 2;
    let next: number;
    const first = frame.charCodeAt(valueAt);
    if (first === QUOTE) {
      const valueEnd = frame.indexOf('"', valueAt + 1);
      if (valueEnd === -1) return undefined;
      switch (keyEnd - at - 1) {
        case 4:
          if (frame.startsWith('type', at + 1)) {
            const entry = KINDS_BY_LENGTH[valueEnd - valueAt - 1];
            if (entry === undefined || !frame.startsWith(entry[0], valueAt + 1)) return undefined;
            kind = entry[1];
          }
          break;
        case 5:
          if (frame.startsWith('delta', at + 1)) {
            deltaFrom = valueAt + 1;
            deltaTo = valueEnd;
            delta = frame.slice(deltaFrom, deltaTo);
          }
          break;
        case 7:
          if (frame.startsWith('item_id', at + 1)) itemId = frame.slice(valueAt + 1, valueEnd);
          break;
        case 11:
          if (frame.startsWith('response_id', at + 1)) responseId = frame.slice(valueAt + 1, valueEnd);
          break;
      }
      next = valueEnd + 1;
    } else {
      // A number, true, false or null runs to the next comma (or the end); nested values are not read here.
      if (first === OPEN_BRACE || first === OPEN_BRACKET) return undefined;
      const comma = frame.indexOf(',', valueAt);
      next = comma === -1 ? last : comma;
      if (!isSkippedScalar(frame, at + 1, keyEnd - at - 1, valueAt, next)) return undefined;
    }
    const separator = frame.charCodeAt(next);
    if (separator === CLOSE_BRACE) {
      if (next !== last) return undefined;
      break;
    }
    if (separator !== COMMA) return undefined;
    at = next + 1;
  }
  if (kind === undefined || responseId === undefined || itemId === undefined || delta === undefined) {
    return undefined;
  }
  // The audio's base64 is checked by its decoder; everything else is checked here (keys, ids, skipped values).
  if (kind !== 'audio') deltaFrom = deltaTo = frame.length;
  if (
    hasRefusedCharacter(frame, 0, deltaFrom, asciiOnly) ||
    hasRefusedCharacter(frame, deltaTo, frame.length, asciiOnly)
  ) {
    return undefined;
  }
  return { kind, responseId, itemId, delta };
}

/** From this size, a text frame given as bytes is first read as `latin1` (see {@link DeltaFrameReader.frameBytes}). */
const LARGE_FRAME_BYTES = 1024;

/** What reads a frame that is not a delta this reader understands: the Realtime codec's full reader. */
export interface FullFrameReader {
  handleFrame(frame: string): void;
}

/**
 * The Realtime codec's entry for frames: a delta frame is read here and its seam event handed straight to the
 * subscriber (`sink.deliver`, the listener itself where one listens); any other frame, or a delta this reader does
 * not fully understand, goes to the full reader. The entries are arrow properties: the connection skeleton calls
 * them as they are, with no closure in between.
 */
export class DeltaFrameReader {
  readonly #full: FullFrameReader;

  constructor(full: FullFrameReader) {
    this.#full = full;
  }

  /** One text frame. */
  readonly frame = (text: string, sink: EventSink): void => {
    const fast = readDeltaFrame(text);
    if (fast === undefined || !this.#deliver(fast, sink)) this.#full.handleFrame(text);
  };

  /**
   * One text frame given as its UTF-8 bytes (a Node `Buffer`, as the `ws` package delivers it). A large frame is
   * nearly always audio: its text is first taken as `latin1` (a plain copy, where UTF-8 decoding checks every byte)
   * and read in the ASCII-only mode; anything else is decoded as UTF-8 and handled as text.
   */
  readonly frameBytes = (bytes: NodeTextFrame, sink: EventSink): void => {
    if (bytes.length >= LARGE_FRAME_BYTES) {
      const fast = readDeltaFrame(bytes.toString('latin1'), true);
      if (fast !== undefined && this.#deliver(fast, sink)) return;
    }
    this.frame(bytes.toString('utf8'), sink);
  };

  /** Delivers the event of a delta; `false` when its audio is not well-formed base64 (the full parse takes it). */
  #deliver(fast: DeltaFrame, sink: EventSink): boolean {
    const { responseId, itemId, delta } = fast;
    if (fast.kind !== 'audio') {
      sink.deliver({
        type: fast.kind === 'text' ? 'text_delta' : 'transcript_delta',
        responseId,
        itemId,
        delta,
      });
      return true;
    }
    const audio = decodeBase64(delta, true);
    if (audio === undefined) return false;
    sink.deliver({ type: 'audio_delta', responseId, itemId, audio });
    return true;
  }
}
