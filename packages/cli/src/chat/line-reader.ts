import { createInterface, type Interface } from 'node:readline';

/** Reads a stream line by line on request; `undefined` once it ended. Works on a terminal and on a pipe. */
export class LineReader {
  readonly #lines: string[] = [];
  readonly #readline: Interface;
  #waiting: ((line: string | undefined) => void) | undefined;
  #ended = false;

  constructor(input: NodeJS.ReadableStream) {
    this.#readline = createInterface({ input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
    this.#readline.on('line', (line) => {
      if (this.#waiting) {
        const resolve = this.#waiting;
        this.#waiting = undefined;
        resolve(line);
      } else this.#lines.push(line);
    });
    this.#readline.on('close', () => {
      this.#ended = true;
      this.#waiting?.(undefined);
      this.#waiting = undefined;
    });
  }

  /** The next line, or `undefined` at the end of the input. */
  next(): Promise<string | undefined> {
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.#ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  close(): void {
    this.#readline.close();
  }
}
