import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inOrder, runParley, startParley } from './run-parley.js';
import { readWav } from './wav-file.js';

/** What a service's model does in the demo's conversation, one reply per response (the questions arrive typed). */
const SERVICE_SCRIPT = [
  { type: 'function_call', name: 'get_balance', arguments: { account: 'checking' } },
  { type: 'message', text: 'Your checking account holds 120 euros.', audioMs: 1200 },
  [
    { type: 'function_call', name: 'get_balance', arguments: { account: 'savings' } },
    { type: 'function_call', name: 'get_card_limit', arguments: {} },
  ],
  {
    type: 'message',
    text: 'Your savings hold 2400 euros, and your card limit is 1000 euros.',
    audioMs: 2000,
  },
  { type: 'function_call', name: 'transfer_to_cards', arguments: {} },
  {
    type: 'message',
    text: 'Cards here: I blocked your card, and a new one is on its way to you.',
    audioMs: 5000,
  },
  { type: 'message', text: 'Your one-time code is 4 7 1 1.', audioMs: 1500 },
];

let dir: string;
let script: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-e2e-demo-providers-'));
  script = join(dir, 'service.json');
  await writeFile(script, JSON.stringify(SERVICE_SCRIPT));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each([
  {
    provider: 'openai',
    env: (origin: string) => ({ OPENAI_API_KEY: 'sk-e2e', OPENAI_BASE_URL: `${origin}/v1` }),
    key: 'sk-e2e',
    // The simulator in OpenAI mode answers out of band: the code stays out of the conversation.
    codeLine: 'items after; the code is not in the history\n',
  },
  {
    provider: 'azure',
    env: (origin: string) => ({
      AZURE_OPENAI_ENDPOINT: origin,
      AZURE_OPENAI_API_KEY: 'azure-e2e-key',
      AZURE_OPENAI_DEPLOYMENT: 'my-realtime',
    }),
    key: 'azure-e2e-key',
    // Azure does not declare out-of-band replies: the session takes the ordinary path and says so.
    codeLine: 'items after; the code is IN the history\n',
  },
])('parley demo --provider $provider', ({ provider, env, key, codeLine }) => {
  test('runs the same conversation against the service its variables point at (here: parley simulator)', {
    timeout: 60_000,
  }, async () => {
    const sim = startParley([
      'simulator',
      '--port',
      '0',
      '--auth',
      provider,
      '--api-key',
      key,
      '--script',
      script,
    ]);
    try {
      const [, port] = /127\.0\.0\.1:(\d+)/.exec(await sim.line(/listening on ws:/)) ?? [];
      const wav = join(dir, `${provider}.wav`);
      const { code, stdout, stderr } = await runParley(
        ['demo', '--provider', provider, '--out', wav, '--memory', 'none'],
        {
          env: env(`http://127.0.0.1:${port}`),
          timeoutMs: 50_000,
        },
      );
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(
        inOrder(stdout, [
          `Parley voice demo: a realtime voice agent on ${provider === 'openai' ? 'OpenAI' : 'Azure OpenAI'} Realtime`,
          'caller     ⌨ "What is my balance?" (typed',
          'Teller     ⚙ get_balance({"account":"checking"})',
          'Teller     🔊 "Your checking account holds 120 euros." (1200 ms of audio, heard in full)',
          'session    ⇉ 2 parallel tool calls in one response; 1 follow-up response answers both',
          'Teller     ⇢ hands the call to Cards',
          'Cards      🔊 "Cards here:',
          'caller     ✋ barges in after hearing 700 ms: session.interrupt()',
          'session    ⏹ audio_interrupted',
          'session    ✂ truncated where the caller stopped listening (700 ms heard, from session.playback)',
          ': "Your one-time code is 4 7 1 1." (1500 ms of audio)',
          codeLine,
          `The agent's audio as the caller heard it (${1200 + 2000 + 700 + 1500} ms): ${wav}`,
        ]),
      ).toEqual({ missing: [], ordered: true });
      expect(stdout + stderr).not.toContain(key);
      const facts = await readWav(wav);
      expect(facts.durationMs).toBe(1200 + 2000 + 700 + 1500);
      expect(facts.rms).toBeGreaterThan(0.1);
    } finally {
      await sim.stop();
    }
  });

  test('names the missing variables and exits 1 before connecting', async () => {
    const { code, stdout, stderr } = await runParley(['demo', '--provider', provider]);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toMatch(new RegExp(`^parley: --provider ${provider} needs .*; not set: `));
  });
});

describe('parley demo --provider gemini', () => {
  test('runs against the service GEMINI_BASE_URL points at (here: parley simulator --api gemini), questions typed', {
    timeout: 60_000,
  }, async () => {
    const key = 'gemini-e2e-key';
    // Paced 4× faster than speech: the call takes a few seconds, and the barge-in still comes mid-answer.
    const sim = startParley([
      'simulator',
      '--api',
      'gemini',
      '--port',
      '0',
      '--speed',
      '4',
      '--api-key',
      key,
    ]);
    try {
      const [, port] = /127\.0\.0\.1:(\d+)/.exec(await sim.line(/listening on ws:/)) ?? [];
      const { code, stdout, stderr } = await runParley(['demo', '--provider', 'gemini'], {
        env: { GEMINI_API_KEY: key, GEMINI_BASE_URL: `ws://127.0.0.1:${port}` },
        timeoutMs: 50_000,
      });
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      // The standalone simulator repeats what it hears: no tool calls, but the same call on a real socket.
      expect(
        inOrder(stdout, [
          `Parley voice demo on Gemini Live: GeminiLiveModel → 127.0.0.1:${port}`,
          'Session    connected (gemini, resumable)',
          'Caller     ⌨ "What is my balance?" (typed)',
          'Teller     🔊 "You said: What is my balance?"',
          'Caller     ⌨ "How did the bank start?" (typed)',
          'Caller     ⌨ "Sorry, one more thing: what is my savings balance?" (typed, over the answer)',
          '(cut off: what the caller heard)',
          'Session    barge-in: response cancelled (client_cancelled)',
          'Teller     🔊 "You said: Sorry, one more thing: what is my savings balance?"',
          'Teller     🔊 "You said: Thanks. Which accounts did we talk about?"',
          '0 tool call(s), 1 barge-in(s), no recycle, 4 spoken answers.',
        ]),
      ).toEqual({ missing: [], ordered: true });
      expect(stdout + stderr).not.toContain(key);
    } finally {
      await sim.stop();
    }
  });

  test('refuses the options its call does not take before connecting', async () => {
    const { code, stdout, stderr } = await runParley([
      'demo',
      '--provider',
      'gemini',
      '--audio-format',
      'g711_ulaw',
    ]);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain('--provider gemini runs its own voice call in PCM16');
  });
});
