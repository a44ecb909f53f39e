import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeSession } from '@parley/memory';
import { openPGliteStore } from '@parley/memory/pglite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inOrder, runParley } from './run-parley.js';
import { readWav } from './wav-file.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-e2e-demo-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('parley demo', () => {
  // The binary runs the demo as users see it: the simulator paces its responses as the service does (about 7 s), and
  // a new memory directory is initialised first (about 8 s of CPU: slow on a loaded machine, hence the limits).
  test('runs the voice agent on the simulator over loopback and writes what the caller heard as a WAV', {
    timeout: 120_000,
  }, async () => {
    const wav = join(dir, 'agent.wav');
    const memoryDir = join(dir, 'memory');
    const { code, stdout, stderr } = await runParley(['demo', '--out', wav, '--memory', memoryDir], {
      timeoutMs: 100_000,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe(
      'Parley voice demo: a realtime voice agent on the embedded OpenAI Realtime simulator (no API key, no network)',
    );
    const timeline = inOrder(stdout, [
      'session    connected: OpenAIRealtimeModel → 127.0.0.1:',
      'caller     🎙 1140 ms of speech, committed',
      '↳ transcribed: "What is my balance?"',
      'Teller     ⚙ get_balance({"account":"checking"})',
      'Teller     🔊 "Your checking account holds 120 euros." (1200 ms of audio, heard in full)',
      'Teller     ⚙ get_balance({"account":"savings"})',
      'Teller     ⚙ get_card_limit({})',
      'session    ⇉ 2 parallel tool calls in one response; 1 follow-up response answers both',
      'Teller     ⇢ hands the call to Cards',
      'Cards      🔊 "Cards here: I blocked the card ending in 4242.…"',
      'caller     ✋ barges in after hearing 700 ms',
      'session    ✂ conversation.item.truncate at 700 ms',
      'Cards      🔒 out of band: "Your one-time code is 4 7 1 1." (1500 ms of audio)',
      "history    10 items after; the code is not in the history and not in the model's context",
      `memory     💾 14 items stored as the caller heard them (PGlite at ${memoryDir}, conversation demo-call-`,
      '↳ the one-time code is not in the store',
      'caller     ☎ rings back: a new session on demo-call-',
      'Teller     💬 "On your earlier call you asked 3 things, and reported your card lost: it is blocked."',
    ]);
    expect(timeline).toEqual({ missing: [], ordered: true });
    await expectSummaryAndHeardWav(stdout, wav, 24_000, ', 14 stored');
    // The call is on disk: a new process opens the embedded store and finds it as the caller heard it.
    const [conversation] = /demo-call-\w+/.exec(stdout) ?? [];
    const store = await openPGliteStore({ dataDir: memoryDir });
    try {
      const items = await storeSession(store, conversation ?? 'missing').getItems();
      expect(items).toHaveLength(16); // the first call, then the second call's question and answer
      expect(items.at(-3)).toMatchObject({
        type: 'message',
        role: 'assistant',
        content: expect.stringMatching(/^Cards here: /),
      });
      expect(JSON.stringify(items)).not.toContain('4 7 1 1');
    } finally {
      await store.close();
    }
  });

  // G.711 (8 kHz, 8 bytes a ms) end to end: the durations the timeline prints come from the bytes that arrived, so
  // they only match the script when the session really runs in 8-bit 8 kHz audio.
  test('--audio-format g711_ulaw runs the call in G.711, truncates at the heard position, writes a PCM16 8 kHz WAV', {
    timeout: 40_000,
  }, async () => {
    const wav = join(dir, 'agent-ulaw.wav');
    const { code, stdout, stderr } = await runParley([
      'demo',
      '--audio-format',
      'g711_ulaw',
      '--out',
      wav,
      '--memory',
      'none',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const timeline = inOrder(stdout, [
      'caller     🎙 1140 ms of speech, committed',
      '↳ transcribed: "What is my balance?"',
      'Teller     🔊 "Your checking account holds 120 euros." (1200 ms of audio, heard in full)',
      'Teller     ⇢ hands the call to Cards',
      'Cards      🔊 "Cards here: I blocked the card ending in 4242.…"',
      'caller     ✋ barges in after hearing 700 ms',
      'session    ⏹ audio_interrupted',
      'session    ✂ conversation.item.truncate at 700 ms',
      '↳ history keeps the message as interrupted: "Cards here: I blocked the card ending in 4242. "',
      'Cards      🔒 out of band: "Your one-time code is 4 7 1 1." (1500 ms of audio)',
    ]);
    expect(timeline).toEqual({ missing: [], ordered: true });
    await expectSummaryAndHeardWav(stdout, wav, 8000);
  });

  test('--audio-format with an unknown value names the nearest format', async () => {
    const { code, stdout, stderr } = await runParley(['demo', '--audio-format', 'g711_mulaw']);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain(
      'parley demo: --audio-format g711_mulaw is not one of pcm16, g711_ulaw, g711_alaw; did you mean --audio-format g711_ulaw?',
    );
  });

  // GPT-Live's clock is its input audio: the call runs as fast as the frames go round (well under a second).
  test('--api live: the voice on OpenAILiveModel delegates to a Parley agent (a tool call, an approval); WAV of its track', async () => {
    const wav = join(dir, 'live.wav');
    const { code, stdout, stderr } = await runParley(['demo', '--api', 'live', '--out', wav]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.split('\n')[0]).toBe(
      'Parley live demo: a GPT-Live voice agent with a Parley agent as its delegated backend, on the embedded GPT-Live simulator (no API key, no network)',
    );
    const timeline = inOrder(stdout, [
      'session    connected: OpenAILiveModel → 127.0.0.1:',
      '↳ transcribed: "What is my balance?"',
      'Voice      ⇢ delegates',
      'Bank       ⚙ get_balance({"account":"checking"})',
      'Your checking account holds 120 euros."',
      '↳ transcribed: "I lost my card ending in 4242. Please block it."',
      'Bank       ⏸ block_card({"last4":"4242"}) needs approval: only this delegation waits',
      'Voice      🔊 "One moment, let me check."',
      "app        ✔ session.approve('",
      'Bank       ✓ "I blocked the card ending in 4242; a new one arrives within three working days." → sent to the voice as commentary',
      'Voice      🔊 "I blocked the card ending in 4242; a new one arrives within three working days."',
      '2 delegations answered by Bank (2 tool calls, 1 approved by the app), 3 spoken responses;',
    ]);
    expect(timeline).toEqual({ missing: [], ordered: true });
    expect(stdout.trimEnd().split('\n').at(-1)).toBe(`The voice's output track (speech and silence): ${wav}`);
    const facts = await readWav(wav);
    expect(facts).toMatchObject({ format: 1, channels: 1, sampleRate: 24_000, bitsPerSample: 16 });
    expect(facts.durationMs).toBeGreaterThan(10_000);
    expect(facts.rms).toBeGreaterThan(0.01);
  });

  test('--text runs the text agent demo on the mock model', async () => {
    const { code, stdout, stderr } = await runParley(['demo', '--text']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('Triage     ⇢ hands the conversation to Billing');
    expect(stdout).toContain('supervisor ✔ approves issue_refund');
    expect(stdout.trim().split('\n').at(-1)).toBe(
      '1 handoff, 2 tool calls, 1 approval, 4 turns; the conversation ended with Billing.',
    );
  });
});

/** The call's closing summary, and the WAV of what the caller heard: 1200 + 2000 + 700 (cut) + 1500 ms, not silent. */
async function expectSummaryAndHeardWav(
  stdout: string,
  wav: string,
  sampleRate: number,
  stored = '',
): Promise<void> {
  const heardMs = 1200 + 2000 + 700 + 1500;
  expect(stdout.trimEnd().split('\n').slice(-2)).toEqual([
    '3 tool calls (2 in parallel, 1 follow-up), 1 handoff, 4 spoken responses, ' +
      `1 barge-in (heard 700 ms, truncated at 700 ms), 1 ephemeral response; history 10 → 10 items${stored}.`,
    `The agent's audio as the caller heard it (${heardMs} ms): ${wav}`,
  ]);
  const facts = await readWav(wav);
  expect(facts).toMatchObject({ format: 1, channels: 1, sampleRate, bitsPerSample: 16 });
  expect(facts.durationMs).toBe(heardMs);
  expect(facts.rms).toBeGreaterThan(0.1);
}
