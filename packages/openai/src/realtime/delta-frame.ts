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
 * with `decodeBase64Exact`, which accepts only well-formed base64 (so no control character either) and otherwise
 * sends the frame to the full parse too.
 */

/** Which delta a frame carries. */
export type DeltaKind = 'audio' | 'transcript' | 'text';

/** The fields of a delta frame read by the fast path. For `audio`, `delta` is still base64. */
export interface DeltaFrame {
  kind: DeltaKind;
  /** For `audio`, not yet checked: decode it with `decodeBase64Exact`. */
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

/** The kind of delta the `type` value at `frame[from, to)` names, without slicing it out. */
function kindAt(frame: string, from: number, to: number): DeltaKind | undefined {
  const entry = KINDS_BY_LENGTH[to - from];
  return entry !== undefined && frame.startsWith(entry[0], from) ? entry[1] : undefined;
}

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

/** `true` when `frame[from, to)` is `true`, `false`, `null` or a JSON number. */
function isScalar(frame: string, from: number, to: number): boolean {
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

/** `true` when the key at `frame[from, from + length)` is one the fast path reads. */
function isReadKey(frame: string, from: number, length: number): boolean {
  switch (length) {
    case 4:
      return frame.startsWith('type', from);
    case 5:
      return frame.startsWith('delta', from);
    case 7:
      return frame.startsWith('item_id', from);
    case 11:
      return frame.startsWith('response_id', from);
    default:
      return false;
  }
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
            kind = kindAt(frame, valueAt + 1, valueEnd);
            if (kind === undefined) return undefined;
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
      // A read key repeated with a value of another type: JSON.parse keeps the last value, which is not a string.
      if (isReadKey(frame, at + 1, keyEnd - at - 1)) return undefined;
      const comma = frame.indexOf(',', valueAt);
      next = comma === -1 ? last : comma;
      if (!isScalar(frame, valueAt, next)) return undefined;
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
