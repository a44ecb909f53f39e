import type { RealtimeAudioFormat } from '../audio.js';
import type { RealtimeAudioStreamFormat } from '../seam.js';

/** G.711 is 8 kHz by definition. */
const G711_RATE = 8000;

/** The sample rate of `format` (Hz). */
export function audioStreamSampleRate(format: RealtimeAudioStreamFormat): number {
  return format.encoding === 'pcm16' ? format.sampleRate : G711_RATE;
}

/** Bytes per millisecond of `format`: 2 a sample for PCM16, 1 for G.711. */
export function audioStreamBytesPerMs(format: RealtimeAudioStreamFormat): number {
  const perSecond = format.encoding === 'pcm16' ? format.sampleRate * 2 : G711_RATE;
  return perSecond / 1000;
}

/** The stream format of a session's audio format (`pcm16` is PCM16 at 24 kHz). */
export function streamFormatOf(format: RealtimeAudioFormat = 'pcm16'): RealtimeAudioStreamFormat {
  return format === 'pcm16' ? { encoding: 'pcm16', sampleRate: 24_000 } : { encoding: format };
}

/** Whether two stream formats carry the same bytes. */
export function sameStreamFormat(a: RealtimeAudioStreamFormat, b: RealtimeAudioStreamFormat): boolean {
  return a.encoding === b.encoding && audioStreamSampleRate(a) === audioStreamSampleRate(b);
}
