/**
 * The continuous output track of a simulated GPT-Live session: for every span of timeline it produces exactly that
 * much PCM16 24 kHz audio — the model's voice while it speaks, a fixture while one plays, digital silence otherwise —
 * and the output transcript fragments spoken in that span.
 */

const SAMPLES_PER_MS = 24;
const PERIOD = 60;

/** A transcript fragment on the timeline. */
export interface TimedText {
  delta: string;
  startMs: number;
  endMs: number;
}

interface Word extends TimedText {
  emitted: boolean;
}

interface Speech {
  startMs: number;
  endMs: number;
  words: Word[];
}

/** What one rendered span holds. */
export interface RenderedSpan {
  pcm24: Uint8Array;
  transcript: TimedText[];
  /** The active fixture finished in this span. */
  fixtureDrained: boolean;
}

/** Splits text into fragments (" word") laid out from `startMs` at `msPerChar`. */
export function layOut(text: string, startMs: number, msPerChar: number): TimedText[] {
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  const lead = /^\s/.test(text) ? ' ' : '';
  const out: TimedText[] = [];
  let at = startMs;
  for (const [i, word] of words.entries()) {
    const delta = i === 0 ? `${lead}${word}` : ` ${word}`;
    const endMs = at + Math.max(1, Math.round(delta.length * msPerChar));
    out.push({ delta, startMs: at, endMs });
    at = endMs;
  }
  return out;
}

export class OutputTrack {
  readonly #msPerChar: number;
  #queue: { text: string; notBeforeMs: number }[] = [];
  #speech: Speech | undefined;
  #fixture: { pcm24: Uint8Array; offset: number } | undefined;
  #spoken = false;

  constructor(msPerChar: number) {
    this.#msPerChar = msPerChar;
  }

  /** The model is speaking or has speech queued. */
  get speaking(): boolean {
    return this.#speech !== undefined || this.#queue.length > 0;
  }

  get fixtureActive(): boolean {
    return this.#fixture !== undefined;
  }

  /** Queues speech decided at `atMs`; it starts there, or when earlier speech ends. */
  say(text: string, atMs: number): void {
    if (text.trim().length > 0) this.#queue.push({ text, notBeforeMs: atMs });
  }

  /** Stops the model's speech at `atMs` (nothing later is heard) and drops queued speech. No event marks it. */
  interrupt(atMs: number): void {
    this.#queue = [];
    const speech = this.#speech;
    if (!speech) return;
    speech.words = speech.words.filter((w) => w.startMs < atMs);
    speech.endMs = Math.max(speech.startMs, Math.min(speech.endMs, atMs));
  }

  /** Plays pre-rendered PCM16 24 kHz audio instead of the model, interrupting its speech. */
  playFixture(pcm24: Uint8Array, atMs: number): void {
    this.interrupt(atMs);
    this.#speech = undefined;
    this.#fixture = { pcm24, offset: 0 };
  }

  /** The audio and transcript of the timeline span `[startMs, endMs)`. */
  render(startMs: number, endMs: number): RenderedSpan {
    const samples = new Int16Array(Math.round((endMs - startMs) * SAMPLES_PER_MS));
    const transcript: TimedText[] = [];
    let fixtureDrained = false;
    const fixture = this.#fixture;
    if (fixture) {
      const bytes = new Uint8Array(samples.buffer);
      const take = Math.min(bytes.length, fixture.pcm24.length - fixture.offset);
      bytes.set(fixture.pcm24.subarray(fixture.offset, fixture.offset + take));
      fixture.offset += take;
      if (fixture.offset >= fixture.pcm24.length) {
        this.#fixture = undefined;
        fixtureDrained = true;
      }
      return { pcm24: toBytes(samples), transcript, fixtureDrained };
    }
    let cursor = startMs;
    for (;;) {
      if (!this.#speech) {
        const next = this.#queue[0];
        if (next === undefined || next.notBeforeMs >= endMs) break;
        this.#queue.shift();
        const at = Math.max(cursor, next.notBeforeMs);
        // Utterances after the first continue the transcript with a space, as the service's fragments do.
        const text = this.#spoken ? ` ${next.text}` : next.text;
        this.#spoken = true;
        const words = layOut(text, at, this.#msPerChar).map((w) => ({ ...w, emitted: false }));
        this.#speech = { startMs: at, endMs: words.at(-1)?.endMs ?? at, words };
      }
      const speech = this.#speech;
      const from = Math.max(speech.startMs, startMs);
      const to = Math.min(speech.endMs, endMs);
      for (let ms = from * SAMPLES_PER_MS; ms < to * SAMPLES_PER_MS; ms++) {
        samples[ms - startMs * SAMPLES_PER_MS] = Math.round(
          Math.sin((2 * Math.PI * (ms % PERIOD)) / PERIOD) * 0.25 * 32767,
        );
      }
      for (const word of speech.words) {
        if (!word.emitted && word.startMs < endMs) {
          word.emitted = true;
          transcript.push({ delta: word.delta, startMs: word.startMs, endMs: word.endMs });
        }
      }
      if (speech.endMs > endMs) break;
      cursor = speech.endMs;
      this.#speech = undefined;
    }
    return { pcm24: toBytes(samples), transcript, fixtureDrained };
  }
}

function toBytes(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i] as number, true);
  return bytes;
}
