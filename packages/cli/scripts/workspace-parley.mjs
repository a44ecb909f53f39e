#!/usr/bin/env node
// `pnpm demo` and `pnpm parley <command>` in the repository: builds the CLI and what it depends on (turbo, cached),
// quietly, then runs it. Plain JavaScript, so it works before anything is built.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const cliBin = join(root, 'packages', 'cli', 'dist', 'bin.js');
const progress = process.stderr.isTTY === true;

if (!existsSync(cliBin)) {
  process.stderr.write(
    'First run: building the Parley packages, which takes 10 to 60 s (later runs start at once)…\n',
  );
}
const status = await build();
if (status !== 0) process.exit(status);
await import(pathToFileURL(cliBin).href);

/** Runs `turbo run build` for the CLI; prints its output only when it fails; shows elapsed time on a terminal. */
function build() {
  const turbo = createRequire(join(root, 'package.json')).resolve('turbo/bin/turbo');
  const child = spawn(
    process.execPath,
    [turbo, 'run', 'build', '--filter=@parley/cli...', '--output-logs=errors-only'],
    {
      cwd: root,
      env: {
        ...process.env,
        TURBO_TELEMETRY_DISABLED: '1',
        TURBO_NO_UPDATE_NOTIFIER: '1',
        DO_NOT_TRACK: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const started = Date.now();
  const ticker = progress
    ? setInterval(() => {
        process.stderr.write(`\r  building… ${Math.round((Date.now() - started) / 1000)} s`);
      }, 1000)
    : undefined;
  return new Promise((resolve) => {
    child.on('close', (code) => {
      if (ticker) {
        clearInterval(ticker);
        if (Date.now() - started >= 1000) process.stderr.write('\r\x1b[K');
      }
      if (code !== 0) {
        process.stderr.write(Buffer.concat(output));
        process.stderr.write(`\nThe build failed (turbo exited with ${code}); the output above says why.\n`);
      }
      resolve(code ?? 1);
    });
  });
}
