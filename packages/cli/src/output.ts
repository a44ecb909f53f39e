/** Where a command writes its text; the real one is stdout, tests pass their own. */
export interface Output {
  line(text?: string): void;
}

/** Writes to the process's standard output. */
export const stdoutOutput: Output = {
  line: (text = '') => {
    process.stdout.write(`${text}\n`);
  },
};

/** Writes to the process's standard error. */
export const stderrOutput: Output = {
  line: (text = '') => {
    process.stderr.write(`${text}\n`);
  },
};
