/**
 * Sample-rate conversion by a rational factor with a windowed-sinc low-pass filter (polyphase FIR): the one
 * resampler of Parley. Going down, the filter removes what the lower rate cannot carry before it would fold back as
 * aliasing; going up, it removes the images that zero-stuffing creates. Streaming: each instance keeps the last
 * input samples, so a stream cut into chunks of any size comes out as the whole stream would, delayed by half the
 * filter (about 0.5 ms at speech rates).
 */

/** Taps of the filter per phase: longer is steeper (less aliasing) and slower. */
const TAPS_PER_PHASE = 32;
/** The pass band ends at this fraction of the lower rate's Nyquist frequency (the rest is the transition band). */
const PASS_FRACTION = 0.9;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The low-pass filter at the upsampled rate, normalized so that each phase has a DC gain of 1. */
function designFilter(up: number, down: number): Float32Array {
  const length = TAPS_PER_PHASE * up;
  // Cutoff as a fraction of the upsampled rate: half the lower of the two rates, scaled into the pass band.
  const cutoff = (0.5 / Math.max(up, down)) * PASS_FRACTION;
  const middle = (length - 1) / 2;
  const taps = new Float32Array(length);
  let sum = 0;
  for (let k = 0; k < length; k++) {
    const x = k - middle;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    // Blackman window: about 74 dB of stop-band attenuation.
    const w =
      0.42 -
      0.5 * Math.cos((2 * Math.PI * k) / (length - 1)) +
      0.08 * Math.cos((4 * Math.PI * k) / (length - 1));
    taps[k] = sinc * w;
    sum += sinc * w;
  }
  for (let k = 0; k < length; k++) taps[k] = ((taps[k] as number) * up) / sum;
  return taps;
}

/** A streaming resampler of mono samples (any numeric scale) from `fromRate` to `toRate` (Hz, integers). */
export class Resampler {
  readonly #up: number;
  readonly #down: number;
  readonly #taps: Float32Array;
  /** The last `TAPS_PER_PHASE - 1` input samples of the previous chunk (zeros before the first). */
  #history: Float64Array;
  /** The next output's position on the upsampled time line, counted from the start of the history. */
  #position: number;

  constructor(fromRate: number, toRate: number) {
    if (!Number.isInteger(fromRate) || !Number.isInteger(toRate) || fromRate <= 0 || toRate <= 0) {
      throw new RangeError(`Sample rates must be positive integers (got ${fromRate} → ${toRate}).`);
    }
    const divisor = gcd(fromRate, toRate);
    this.#up = toRate / divisor;
    this.#down = fromRate / divisor;
    this.#taps =
      this.#up === 1 && this.#down === 1 ? new Float32Array([1]) : designFilter(this.#up, this.#down);
    this.#history = new Float64Array(TAPS_PER_PHASE - 1);
    this.#position = (TAPS_PER_PHASE - 1) * this.#up;
  }

  /** Whether the rates are equal (samples pass through untouched). */
  get identity(): boolean {
    return this.#up === this.#down;
  }

  /** Resamples the next chunk of the stream. */
  push(samples: ArrayLike<number>): Float64Array {
    if (this.identity) return Float64Array.from(samples);
    const up = this.#up;
    const down = this.#down;
    const taps = this.#taps;
    const history = this.#history;
    const kept = history.length;
    const total = kept + samples.length;
    const input = new Float64Array(total);
    input.set(history);
    for (let i = 0; i < samples.length; i++) input[kept + i] = samples[i] as number;
    const count = Math.max(0, Math.ceil((total * up - this.#position) / down));
    const out = new Float64Array(count);
    let position = this.#position;
    for (let m = 0; m < count; m++) {
      const newest = Math.floor(position / up);
      const phase = position - newest * up;
      let acc = 0;
      for (let j = 0, k = phase; j < TAPS_PER_PHASE; j++, k += up)
        acc += (taps[k] as number) * (input[newest - j] as number);
      out[m] = acc;
      position += down;
    }
    // Keep the newest samples as the next chunk's history; move the time line to start there.
    const consumed = total - kept;
    this.#history = input.slice(total - kept);
    this.#position = position - consumed * up;
    return out;
  }
}
