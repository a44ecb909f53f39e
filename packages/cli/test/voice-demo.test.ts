import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runVoiceDemo } from '@parley/cli';
import { InMemoryStore, storeSession } from '@parley/memory';
import { FastForwardClock } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { capture } from './capture.js';

/**
 * The simulator paces its responses; in virtual time here, so the test does not wait for them. Memory on the
 * in-memory store (the embedded PGlite store is the command's default, run end to end in tests/cli).
 */
const fastForward = (store = new InMemoryStore()) => ({
  simulatorClock: new FastForwardClock(),
  memory: { store, label: 'in memory' },
});

/** The indexes of `fragments` in `text`, in the order given (-1 when missing). */
function positions(text: string, fragments: string[]): number[] {
  return fragments.map((fragment) => text.indexOf(fragment));
}

describe('the voice demo (parley demo)', () => {
  test('runs the call on the simulator: tool call, parallel calls, handoff, barge-in, ephemeral code', async () => {
    const out = capture();
    const wavPath = join(tmpdir(), `parley-voice-demo-${process.pid}.wav`);
    const store = new InMemoryStore();
    const summary = await runVoiceDemo(out, { wavPath, ...fastForward(store) });
    const heardMs = 1200 + 2000 + 700 + 1500;
    expect(summary).toMatchObject({
      toolCalls: 3,
      parallelToolCalls: 2,
      followUpRequests: 1,
      handoffs: ['Teller → Cards'],
      spokenResponses: 4,
      heardMs: 700,
      truncatedAtMs: 700,
      ephemeralTranscript: 'Your one-time code is 4 7 1 1.',
      historyBefore: 10,
      historyAfter: 10,
    });
    expect(summary.heardAudio.byteLength).toBe(heardMs * 48);
    const wav = await readFile(wavPath);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(24)).toBe(24_000);
    expect(wav.readUInt32LE(40)).toBe(heardMs * 48);
    const text = out.text();
    const fragments = [
      'session    connected: OpenAIRealtimeModel → 127.0.0.1:',
      'caller     🎙 1140 ms of speech, committed',
      '↳ transcribed: "What is my balance?"',
      'Teller     ⚙ get_balance({"account":"checking"})',
      '↳ get_balance returned {"account":"checking","balance":120,"currency":"EUR"}',
      'Teller     🔊 "Your checking account holds 120 euros." (1200 ms of audio, heard in full)',
      '↳ transcribed: "And my savings, and my card limit?"',
      'session    ⇉ 2 parallel tool calls in one response; 1 follow-up response answers both',
      'Teller     🔊 "Your savings hold 2400 euros, and your card limit is 1000 euros."',
      '↳ transcribed: "I lost my card."',
      'Teller     ⇢ hands the call to Cards (handoff tool call)',
      'Cards      🔊 "Cards here: I blocked the card ending in 4242.…" (2350 ms of audio so far, still talking)',
      'caller     ✋ barges in after hearing 700 ms: session.interrupt()',
      'session    ⏹ audio_interrupted: stop local playback now',
      '↳ response_done: cancelled',
      'session    ✂ conversation.item.truncate at 700 ms',
      '↳ history keeps the message as interrupted: "Cards here: I blocked the card ending in 4242. "',
      'history    10 items before the one-time code',
      'Cards      🔒 out of band: "Your one-time code is 4 7 1 1." (1500 ms of audio)',
      "history    10 items after; the code is not in the history and not in the model's context",
    ];
    const order = positions(text, fragments);
    expect(order.map((index, i) => (index < 0 ? fragments[i] : 'found'))).toEqual(
      fragments.map(() => 'found'),
    );
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(out.lines.at(-1)).toBe(`The agent's audio as the caller heard it (${heardMs} ms): ${wavPath}`);
  });

  test('writes the call to memory as the caller heard it: the cut answer as heard, the one-time code never', async () => {
    const store = new InMemoryStore();
    const out = capture();
    const summary = await runVoiceDemo(out, fastForward(store));
    const [conversation] = /demo-call-\w+/.exec(out.text()) ?? [];
    const all = await storeSession(store, conversation ?? 'missing').getItems();
    // The first call's items, then the second call's question and answer (the caller rang back).
    const stored = all.slice(0, -2);
    expect(summary.storedItems).toEqual(stored);
    expect(
      all.slice(-2).map((item) => (item.type === 'message' ? [item.role, item.content] : item.type)),
    ).toEqual([
      ['user', 'I called earlier. What did I report?'],
      ['assistant', 'On your earlier call you asked 3 things, and reported your card lost: it is blocked.'],
    ]);
    expect(summary.ringBackAnswer).toBe(
      'On your earlier call you asked 3 things, and reported your card lost: it is blocked.',
    );
    const messages = stored.flatMap((item) => (item.type === 'message' ? [[item.role, item.content]] : []));
    expect(messages).toEqual([
      ['user', 'What is my balance?'],
      ['assistant', 'Your checking account holds 120 euros.'],
      ['user', 'And my savings, and my card limit?'],
      ['assistant', 'Your savings hold 2400 euros, and your card limit is 1000 euros.'],
      ['user', 'I lost my card.'],
      ['assistant', expect.stringMatching(/^Cards here: /)],
    ]);
    const cut = messages.at(-1)?.[1] ?? '';
    expect('Cards here: I blocked the card ending in 4242.'.startsWith(cut.trimEnd())).toBe(true);
    expect(cut.length).toBeLessThan('Cards here: I blocked the card ending in 4242.'.length);
    const calls = stored.flatMap((item) => (item.type === 'function_call' ? [item.name] : []));
    expect(calls.sort()).toEqual(['get_balance', 'get_balance', 'get_card_limit', 'transfer_to_cards']);
    expect(stored.filter((item) => item.type === 'function_call_output')).toHaveLength(4);
    expect(JSON.stringify(stored)).not.toContain('4 7 1 1');
    expect(out.text()).toContain(
      `memory     💾 14 items stored as the caller heard them (in memory, conversation ${conversation}): 6 messages, 4 function calls with their outputs`,
    );
    expect(out.text()).toContain('↳ the one-time code is not in the store');
    expect(out.text()).toContain(
      `caller     ☎ rings back: a new session on ${conversation}, started from the 10 items it holds`,
    );
    expect(out.text()).toContain(
      'Teller     💬 "On your earlier call you asked 3 things, and reported your card lost: it is blocked."',
    );
  });

  test('without memory there is nothing to ring back to: no store, no second call', async () => {
    const out = capture();
    const summary = await runVoiceDemo(out, { simulatorClock: new FastForwardClock(), memory: false });
    expect(summary).toMatchObject({ storedItems: undefined, ringBackAnswer: undefined });
    expect(out.text()).not.toContain('rings back');
    expect(out.text()).not.toContain('💾');
  });

  test('runs the call in G.711 A-law: 8 bytes a ms, the cut at the heard position, a PCM16 8 kHz WAV', async () => {
    const out = capture();
    const wavPath = join(tmpdir(), `parley-voice-demo-alaw-${process.pid}.wav`);
    const summary = await runVoiceDemo(out, { wavPath, audioFormat: 'g711_alaw', ...fastForward() });
    const heardMs = 1200 + 2000 + 700 + 1500;
    expect(summary).toMatchObject({ audioMs: 1200 + 2000 + 2350 + 1500, heardMs: 700, truncatedAtMs: 700 });
    expect(summary.heardAudio.byteLength).toBe(heardMs * 8);
    const wav = await readFile(wavPath);
    expect([wav.readUInt16LE(20), wav.readUInt32LE(24), wav.readUInt16LE(34)]).toEqual([1, 8000, 16]);
    expect(wav.readUInt32LE(40)).toBe(heardMs * 8 * 2);
    expect(out.text()).toContain('↳ transcribed: "I lost my card."');
    expect(out.lines.at(-1)).toBe(`The agent's audio as the caller heard it (${heardMs} ms): ${wavPath}`);
  });

  test('prints the same transcript every time (but for the port)', async () => {
    const first = capture();
    const second = capture();
    await runVoiceDemo(first, fastForward());
    await runVoiceDemo(second, fastForward());
    const noPort = (text: string) =>
      text.replace(/127\.0\.0\.1:\d+/, '127.0.0.1:PORT').replace(/demo-call-\w+/g, 'demo-call-ID');
    expect(noPort(second.text())).toEqual(noPort(first.text()));
  });
});
