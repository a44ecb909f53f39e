/**
 * The hot path: the delta frames that make up nearly all of a response's traffic (audio, its transcript, text) are
 * read with a small scanner for flat JSON objects instead of `JSON.parse`. It walks the keys once with `indexOf`,
 * keeps the string values it needs as slices of the frame (the base64 audio is never copied), and works whatever the
 * key order. Anything it does not fully understand (an escape anywhere, a nested value, whitespace, another event
 * type) returns `undefined`, and the caller parses the frame normally.
 */

/** Which delta a frame carries. */
export type DeltaKind = 'audio' | 'transcript' | 'text';

/** The fields of a delta frame read by the fast path. For `audio`, `delta` is still base64. */
export interface DeltaFrame {
  kind: DeltaKind;
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

/** `true` when `frame[from, to)` is `true`, `false`, `null` or made of number characters. */
function isScalar(frame: string, from: number, to: number): boolean {
  const length = to - from;
  if (length === 4) {
    if (frame.startsWith('true', from) || frame.startsWith('null', from)) return true;
  } else if (length === 5 && frame.startsWith('false', from)) {
    return true;
  }
  if (length <= 0) return false;
  for (let i = from; i < to; i++) {
    const c = frame.charCodeAt(i);
    const numeric = (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
    if (!numeric) return false;
  }
  return true;
}

/** Reads a delta frame, or returns `undefined` when `frame` is anything else (or unusual). */
export function readDeltaFrame(frame: string): DeltaFrame | undefined {
  const last = frame.length - 1;
  if (frame.charCodeAt(0) !== OPEN_BRACE || frame.charCodeAt(last) !== CLOSE_BRACE) return undefined;
  // Without escapes every string value is the text between two quotes.
  if (frame.indexOf('\\') !== -1) return undefined;
  let kind: DeltaKind | undefined;
  let responseId: string | undefined;
  let itemId: string | undefined;
  let delta: string | undefined;
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
          if (frame.startsWith('delta', at + 1)) delta = frame.slice(valueAt + 1, valueEnd);
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
  return { kind, responseId, itemId, delta };
}
