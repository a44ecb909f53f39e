import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// Runs on the built packages (turbo builds the dependencies before this package's tests).
test('runConformance works without vitest: node --test runs the suite and gets a passing report', {
  timeout: 60_000,
}, async () => {
  const file = fileURLToPath(new URL('./node-test-conformance.mjs', import.meta.url));
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += String(chunk);
    });
    child.on('close', (exitCode) => resolve({ code: exitCode, output }));
  });
  expect(output).toContain('conformance: openai (passed)');
  expect(output).toContain('✔ text message in, one response out, both in history');
  expect(code, output).toBe(0);
});
