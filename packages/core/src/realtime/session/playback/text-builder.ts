import { TEXT_DELTAS_PER_JOIN as CHUNK } from '../../../constants.js';

/**
 * A string built from many small appends (transcript and text deltas). `text += delta` keeps one rope
 * cell per delta alive for as long as the text lives, which the garbage collector copies and promotes
 * again and again on a long response; here appends are joined every {@link CHUNK} pieces, so the text
 * grows by one flat piece and one rope cell per chunk. A small chunk keeps what a long response retains
 * close to its characters: measured with 100 paced sessions, about 5 bytes per transcript delta (a
 * 5-character word) at 16, against 31 at 256 (each piece a 24-byte string plus its array slot until the
 * join).
 */
export class TextBuilder {
  #text: string;
  #parts: string[] = [];
  #length: number;

  constructor(text = '') {
    this.#text = text;
    this.#length = text.length;
  }

  /** The length of the text, appends included. */
  get length(): number {
    return this.#length;
  }

  append(delta: string): void {
    this.#parts.push(delta);
    this.#length += delta.length;
    if (this.#parts.length >= CHUNK) this.#join();
  }

  /** The text so far. */
  toString(): string {
    this.#join();
    return this.#text;
  }

  #join(): void {
    if (this.#parts.length === 0) return;
    this.#text += this.#parts.join('');
    this.#parts = [];
  }
}
