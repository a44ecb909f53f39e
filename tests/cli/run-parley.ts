import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** The built `parley` binary, as a user's `parley` runs it. */
export const parleyBin = require
  .resolve('@parley/cli/package.json')
  .replace(/package\.json$/, 'bin/parley.js');

/** What a finished `parley` process wrote, and its exit code. */
export interface ParleyRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runParley}. */
export interface RunOptions {
  /** Written to the process's stdin (a pipe), which is then closed. */
  stdin?: string;
  env?: Record<string, string>;
  /** Kill the process after this long. Default 30 s. */
  timeoutMs?: number;
  /** The script to run instead of the built binary (e.g. the workspace launcher). */
  bin?: string;
}

/** Runs `parley <args>` in a real process (stdin/stdout are pipes, not a terminal) and waits for it to exit. */
export function runParley(args: readonly string[], options: RunOptions = {}): Promise<ParleyRun> {
  const child = spawn(process.execPath, [options.bin ?? parleyBin, ...args], {
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end(options.stdin ?? '');
  const timer = setTimeout(() => child.kill(), options.timeoutMs ?? 30_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The positions of `fragments` in `text`; fails the test with the missing ones. */
export function inOrder(text: string, fragments: readonly string[]): { missing: string[]; ordered: boolean } {
  const positions = fragments.map((f) => text.indexOf(f));
  return {
    missing: fragments.filter((_, i) => (positions[i] as number) < 0),
    ordered: positions.every((p, i) => i === 0 || p > (positions[i - 1] as number)),
  };
}

/** A `parley` process that keeps running (a server): read its output as it comes, stop it with a signal. */
export interface RunningParley {
  /** Resolves with the first stdout line matching `pattern` (already printed or still to come). */
  line(pattern: RegExp): Promise<string>;
  /** Sends `signal` and resolves with the finished run. */
  stop(signal?: NodeJS.Signals): Promise<ParleyRun>;
}

/** Starts `parley <args>` and leaves it running. */
export function startParley(args: readonly string[]): RunningParley {
  const child = spawn(process.execPath, [parleyBin, ...args], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const check = () => {
    waiters = waiters.filter((waiter) => {
      const found = stdout.split('\n').find((line) => waiter.pattern.test(line));
      if (found === undefined) return true;
      waiter.resolve(found);
      return false;
    });
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    check();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const closed = new Promise<ParleyRun>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return {
    line(pattern) {
      return new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve });
        check();
        void closed.then((run) =>
          reject(
            new Error(`parley exited (${run.code}) before printing ${pattern}:\n${run.stdout}${run.stderr}`),
          ),
        );
      });
    },
    async stop(signal = 'SIGINT') {
      child.kill(signal);
      const run = await closed;
      clearTimeout(killer);
      return run;
    },
  };
}
