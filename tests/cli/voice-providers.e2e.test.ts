import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { speechAudio } from '@parley/simulator';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inOrder, runParley, startParley } from './run-parley.js';
import { readWav, writeWav } from './wav-file.js';

let dir: string;
let question: string;
let script: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-e2e-providers-'));
  question = join(dir, 'question.wav');
  const pcm = speechAudio('What is my balance?');
  await writeWav(question, [new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength / 2)], 24_000);
  script = join(dir, 'brain.json');
  await writeFile(
    script,
    JSON.stringify([{ type: 'function_call', name: 'get_balance', arguments: { account: 'checking' } }]),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * `parley voice --provider X` against `parley simulator` in another process, as against the real service: the
 * provider's URL form and credentials, from the environment variables a user sets.
 */
describe.each([
  {
    provider: 'openai',
    auth: 'openai',
    env: (origin: string) => ({ OPENAI_API_KEY: 'sk-e2e', OPENAI_BASE_URL: `${origin}/v1` }),
    key: 'sk-e2e',
  },
  {
    provider: 'azure',
    auth: 'azure',
    env: (origin: string) => ({
      AZURE_OPENAI_ENDPOINT: origin,
      AZURE_OPENAI_API_KEY: 'azure-e2e-key',
      AZURE_OPENAI_DEPLOYMENT: 'my-realtime',
    }),
    key: 'azure-e2e-key',
  },
])('parley voice --provider $provider', ({ provider, auth, env, key }) => {
  test('runs the turn against the service its variables point at (here: parley simulator)', {
    timeout: 40_000,
  }, async () => {
    const sim = startParley([
      'simulator',
      '--port',
      '0',
      '--auth',
      auth,
      '--api-key',
      key,
      '--script',
      script,
    ]);
    try {
      const [, port] = /127\.0\.0\.1:(\d+)/.exec(await sim.line(/listening on ws:/)) ?? [];
      const out = join(dir, `${provider}.wav`);
      const { code, stdout, stderr } = await runParley(
        ['voice', '--in', question, '--out', out, '--provider', provider],
        { env: env(`http://127.0.0.1:${port}`), timeoutMs: 30_000 },
      );
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(
        inOrder(stdout, [
          `127.0.0.1:${port}`,
          'caller     🎙 question.wav: 1140 ms, 24000 Hz mono, committed',
          '↳ transcribed: "What is my balance?"',
          'Teller     ⚙ get_balance({"account":"checking"})',
          'Teller     🔊 "The tool said: {"account":"checking","balance":120,"currency":"EUR"}"',
          `${out}`,
        ]),
      ).toEqual({ missing: [], ordered: true });
      expect(stdout).not.toContain(key);
      const facts = await readWav(out);
      expect(facts.durationMs).toBeGreaterThan(1000);
      expect(facts.rms).toBeGreaterThan(0.1);
    } finally {
      await sim.stop();
    }
  });
});
