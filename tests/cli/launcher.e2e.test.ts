import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { runParley } from './run-parley.js';

const cli = new URL('../../packages/cli/', import.meta.url);
const launcher = fileURLToPath(new URL('scripts/workspace-parley.mjs', cli));

// `pnpm demo` and `pnpm parley` in the repository: the first run must not wait for every package to compile.
test('the workspace launcher bundles the CLI from the sources (no package build needed) and runs it', {
  timeout: 90_000,
}, async () => {
  const run = await runParley(['demo', '--text'], { bin: launcher, timeoutMs: 80_000 });
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  expect(run.stdout.trim().split('\n').at(-1)).toBe(
    '1 handoff, 2 tool calls, 1 approval, 4 turns; the conversation ended with Billing.',
  );
  // The workspace packages came from their TypeScript sources; their builds (dist/) were not used.
  const inputs: string[] = JSON.parse(await readFile(new URL('.dev/cli/inputs.json', cli), 'utf8'));
  const workspace = inputs.filter((path) => /\/packages\/[\w-]+\//.test(path));
  expect(workspace.length).toBeGreaterThan(100);
  expect(workspace.filter((path) => !/\/packages\/[\w-]+\/src\/.+\.ts$/.test(path))).toEqual([]);
  expect(workspace.some((path) => path.endsWith('/packages/core/src/realtime/session/session.ts'))).toBe(
    true,
  );
  const version = await runParley(['--version'], { bin: launcher, timeoutMs: 80_000 });
  expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
});
