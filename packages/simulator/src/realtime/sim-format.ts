import { type WireAudioFormat, wireBytesPerMs } from '@parley/openai/wire';
import { type CodecFormat, fromPcm24, fromSamples, toPcm24, toSamples } from '../shared/audio-codec.js';

/**
 * The Realtime simulator reasons in PCM16 24 kHz (VAD, synthesized speech, the text embedded by `speechAudio`) and
 * speaks the session's format on the wire: `audio/pcm` as is, `audio/pcmu` / `audio/pcma` as G.711 at 8 kHz.
 */
function codecFormat(format: WireAudioFormat): CodecFormat {
  return format.type === 'audio/pcm' ? { type: 'audio/pcm', rate: 24000 } : { type: format.type, rate: 8000 };
}

/** Wire audio in `format` as PCM16 24 kHz. */
export function wireToPcm24(format: WireAudioFormat, bytes: Uint8Array): Uint8Array {
  return format.type === 'audio/pcm' ? bytes : toPcm24(codecFormat(format), bytes);
}

/** PCM16 24 kHz as wire audio in `format`. */
export function pcm24ToWire(format: WireAudioFormat, pcm24: Uint8Array): Uint8Array {
  return format.type === 'audio/pcm' ? pcm24 : fromPcm24(codecFormat(format), pcm24);
}

export { wireBytesPerMs };

/**
 * Test audio made as PCM16 24 kHz (`speechAudio`, `silenceAudio`) in a session format, e.g. for a G.711 session:
 * `toSessionAudio(speechAudio('hello'), { type: 'audio/pcmu' })`. (G.711 keeps the speech's energy, so the VAD hears
 * it, but not the text `speechAudio` embeds: transcripts then come from `transcribe` or `stopSpeech({ transcript })`.)
 */
export function toSessionAudio(pcm24: Uint8Array, format: WireAudioFormat): Uint8Array {
  return pcm24ToWire(format, pcm24);
}

/** G.711 session audio (`audio/pcmu` / `audio/pcma`, 8 kHz) decoded to PCM16 little-endian at 8 kHz, e.g. for a WAV file. */
export function g711ToPcm16(g711: Uint8Array, type: 'audio/pcmu' | 'audio/pcma'): Uint8Array {
  // Encoding PCM16 does not read the rate: the samples stay at 8 kHz.
  return fromSamples({ type: 'audio/pcm', rate: 24000 }, toSamples({ type, rate: 8000 }, g711));
}
