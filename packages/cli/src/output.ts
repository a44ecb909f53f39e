/** Where a command writes its text; the real ones are stdout and stderr, tests pass their own. */
export interface Output {
  /** Writes `text` and a newline. */
  line(text?: string): void;
  /** Writes `text` as it is (streamed tokens, prompts). */
  write(text: string): void;
  /** `true` when a person watches (a terminal): progress is shown only then. */
  readonly isTTY: boolean;
}

function streamOutput(stream: NodeJS.WriteStream): Output {
  return {
    line: (text = '') => {
      stream.write(`${text}\n`);
    },
    write: (text) => {
      stream.write(text);
    },
    get isTTY() {
      return stream.isTTY === true;
    },
  };
}

/** Writes to the process's standard output. */
export const stdoutOutput: Output = streamOutput(process.stdout);

/** Writes to the process's standard error. */
export const stderrOutput: Output = streamOutput(process.stderr);
