import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runVoiceDemo } from '@parley/cli';
import { FastForwardClock } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { capture } from './capture.js';

/** The simulator paces its responses; in virtual time here, so the test does not wait for them. */
const fastForward = () => ({ simulatorClock: new FastForwardClock() });

/** The indexes of `fragments` in `text`, in the order given (-1 when missing). */
function positions(text: string, fragments: string[]): number[] {
  return fragments.map((fragment) => text.indexOf(fragment));
}

describe('the voice demo (parley demo)', () => {
  test('runs the call on the simulator: tool call, parallel calls, handoff, barge-in, ephemeral code', async () => {
    const out = capture();
    const wavPath = join(tmpdir(), `parley-voice-demo-${process.pid}.wav`);
    const summary = await runVoiceDemo(out, { wavPath, ...fastForward() });
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
    const noPort = (text: string) => text.replace(/127\.0\.0\.1:\d+/, '127.0.0.1:PORT');
    expect(noPort(second.text())).toEqual(noPort(first.text()));
  });
});
