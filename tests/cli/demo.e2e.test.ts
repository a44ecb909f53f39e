import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const bin = require.resolve('@parley/cli/package.json').replace(/package\.json$/, 'bin/parley.js');

test('the built `parley demo` binary prints the support transcript and exits 0', async () => {
  const { stdout, stderr } = await run(process.execPath, [bin, 'demo'], {
    env: { PATH: process.env.PATH ?? '' },
  });
  expect(stderr).toBe('');
  expect(stdout).toContain('Triage     ⇢ hands the conversation to Billing');
  expect(stdout).toContain('supervisor ✔ approves issue_refund');
  expect(stdout.trim().split('\n').at(-1)).toBe(
    '1 handoff, 2 tool calls, 1 approval, 4 turns; the conversation ended with Billing.',
  );
});

test('`parley` with an unknown command exits 2 with usage on stderr', async () => {
  await expect(run(process.execPath, [bin, 'bogus'])).rejects.toMatchObject({
    code: 2,
    stderr: expect.stringContaining('Usage: parley <command>'),
  });
});
