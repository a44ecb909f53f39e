import type { RealtimeAudioStreamFormat } from '../seam.js';
import { audioStreamSampleRate, sameStreamFormat } from './audio-stream-format.js';
import { decodeG711, encodeG711 } from './g711.js';
import { Resampler } from './resampler.js';

function pcm16Samples(bytes: Uint8Array): Int16Array {
  const samples = new Int16Array(bytes.length >> 1);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true);
  return samples;
}

function pcm16Bytes(samples: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) {
    view.setInt16(i * 2, Math.max(-32768, Math.min(32767, Math.round(samples[i] as number))), true);
  }
  return bytes;
}

/**
 * Converts an audio stream from one format to another, chunk by chunk: decode (PCM16 little-endian or G.711),
 * resample with the low-pass filter ({@link Resampler}), encode. Stateful (the filter remembers the end of the last
 * chunk): use one converter per stream, and a new one when the stream starts over. Between equal formats bytes pass
 * through untouched.
 */
export class AudioConverter {
  readonly from: RealtimeAudioStreamFormat;
  readonly to: RealtimeAudioStreamFormat;
  readonly #resampler: Resampler;
  readonly #identity: boolean;
  /** A PCM16 byte left over from a chunk of odd length (a sample split between two chunks). */
  #oddByte: number | undefined;

  constructor(from: RealtimeAudioStreamFormat, to: RealtimeAudioStreamFormat) {
    this.from = from;
    this.to = to;
    this.#identity = sameStreamFormat(from, to);
    this.#resampler = new Resampler(audioStreamSampleRate(from), audioStreamSampleRate(to));
  }

  /** The next chunk of the stream in the target format. */
  convert(bytes: Uint8Array): Uint8Array {
    if (this.#identity) return bytes;
    const samples = this.#decode(bytes);
    const resampled = this.#resampler.identity ? samples : this.#resampler.push(samples);
    return this.to.encoding === 'pcm16' ? pcm16Bytes(resampled) : encodeG711(this.to.encoding, resampled);
  }

  #decode(bytes: Uint8Array): Int16Array {
    if (this.from.encoding !== 'pcm16') return decodeG711(this.from.encoding, bytes);
    let input = bytes;
    if (this.#oddByte !== undefined) {
      input = new Uint8Array(bytes.length + 1);
      input[0] = this.#oddByte;
      input.set(bytes, 1);
      this.#oddByte = undefined;
    }
    if (input.length % 2 === 1) {
      this.#oddByte = input[input.length - 1];
      input = input.subarray(0, input.length - 1);
    }
    return pcm16Samples(input);
  }
}
