import type { GeminiServerMessage } from './live-wire.js';

const AUDIO_PREFIX =
  '{"serverContent":{"modelTurn":{"parts":[{"inlineData":{"mimeType":"audio/pcm;rate=24000","data":"';
const AUDIO_SUFFIX = '"}}]}}}';

/**
 * The hot path of the socket: a frame that is exactly one audio part of a model turn, written compactly in the
 * field order the service uses, is read without `JSON.parse` (most of a session's frames are these, and most of each
 * is its base64 audio). Anything else, however slightly different, returns `undefined` and is parsed as usual, so
 * the result always means what `JSON.parse` would have made of the frame.
 */
export function audioFrame(text: string): GeminiServerMessage | undefined {
  if (!text.startsWith(AUDIO_PREFIX) || !text.endsWith(AUDIO_SUFFIX)) return undefined;
  const data = text.slice(AUDIO_PREFIX.length, text.length - AUDIO_SUFFIX.length);
  // Base64 holds no quote or backslash: a frame whose audio does is not of this shape.
  if (data.includes('"') || data.includes('\\')) return undefined;
  return {
    serverContent: { modelTurn: { parts: [{ inlineData: { mimeType: 'audio/pcm;rate=24000', data } }] } },
  };
}
