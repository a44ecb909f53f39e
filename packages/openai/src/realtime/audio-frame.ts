/**
 * The audio hot path: an `response.output_audio.delta` frame (or the beta `response.audio.delta`) is recognised by
 * its prefix and its three string fields are read with `indexOf`, without `JSON.parse`. Anything unexpected
 * (nested values, escapes, a different field layout) returns `undefined`, and the caller parses the frame normally.
 */

const GA_PREFIX = '{"type":"response.output_audio.delta"';
const BETA_PREFIX = '{"type":"response.audio.delta"';
const RESPONSE_ID = '"response_id":"';
const ITEM_ID = '"item_id":"';
const DELTA = '"delta":"';
const CLOSE_BRACE = 125;

/** The fields of an audio delta frame read by the fast path. `delta` is still base64. */
export interface AudioDeltaFrame {
  responseId: string;
  itemId: string;
  delta: string;
}

function readString(frame: string, key: string): string | undefined {
  const at = frame.indexOf(key);
  if (at === -1) return undefined;
  const start = at + key.length;
  const end = frame.indexOf('"', start);
  if (end === -1) return undefined;
  // An escaped character means the value is not a plain id or base64 text: let JSON.parse handle it.
  const backslash = frame.indexOf('\\', start);
  if (backslash !== -1 && backslash < end) return undefined;
  return frame.slice(start, end);
}

/** Reads an audio delta frame, or returns `undefined` when `frame` is anything else (or unusual). */
export function readAudioDeltaFrame(frame: string): AudioDeltaFrame | undefined {
  if (!frame.startsWith(GA_PREFIX) && !frame.startsWith(BETA_PREFIX)) return undefined;
  if (frame.charCodeAt(frame.length - 1) !== CLOSE_BRACE) return undefined;
  // Only flat objects: a key found by indexOf could otherwise belong to a nested value.
  if (frame.indexOf('{', 1) !== -1 || frame.indexOf('[') !== -1) return undefined;
  const responseId = readString(frame, RESPONSE_ID);
  if (responseId === undefined) return undefined;
  const itemId = readString(frame, ITEM_ID);
  if (itemId === undefined) return undefined;
  const delta = readString(frame, DELTA);
  if (delta === undefined) return undefined;
  return { responseId, itemId, delta };
}
