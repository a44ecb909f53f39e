/**
 * PCM16 mono from the session's 24 kHz to the 16 kHz the service takes, by linear interpolation at 1.5 input samples
 * per output sample, across chunk boundaries (the last input sample of a chunk is kept for the next, and so is the
 * first byte of a sample a chunk splits).
 */
export class Pcm24To16 {
  /** Position of the next output sample, in input samples from the first sample of the kept one. */
  #position = 0;
  #previous: number | undefined;
  /** The first byte of a sample split across chunks. */
  #carry: number | undefined;

  convert(chunk: Uint8Array): Uint8Array {
    let bytes = chunk;
    if (this.#carry !== undefined) {
      bytes = new Uint8Array(chunk.byteLength + 1);
      bytes[0] = this.#carry;
      bytes.set(chunk, 1);
      this.#carry = undefined;
    }
    if (bytes.byteLength % 2 === 1) {
      this.#carry = bytes[bytes.byteLength - 1];
      bytes = bytes.subarray(0, bytes.byteLength - 1);
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = view.byteLength / 2;
    const offset = this.#previous === undefined ? 0 : 1;
    const total = count + offset;
    const sample = (i: number): number =>
      offset === 1 && i === 0 ? (this.#previous as number) : view.getInt16((i - offset) * 2, true);
    const out: number[] = [];
    let p = this.#position;
    while (Math.floor(p) + 1 < total) {
      const i = Math.floor(p);
      const frac = p - i;
      const a = sample(i);
      const b = sample(i + 1);
      out.push(Math.round(a + (b - a) * frac));
      p += 1.5;
    }
    if (total > 0) {
      this.#previous = sample(total - 1);
      this.#position = p - (total - 1);
    }
    const result = new Uint8Array(out.length * 2);
    const outView = new DataView(result.buffer);
    for (let i = 0; i < out.length; i++) outView.setInt16(i * 2, out[i] as number, true);
    return result;
  }
}
