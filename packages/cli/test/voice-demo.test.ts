import { main, type Output, runVoiceDemo } from '@parley/cli';
import { FastForwardClock } from '@parley/openai/testing';
import { describe, expect, test } from 'vitest';

/** The simulator paces its responses; in virtual time here, so the test does not wait for them. */
const fastForward = () => ({ simulatorClock: new FastForwardClock() });

function capture(): Output & { lines: string[] } {
  const lines: string[] = [];
  return { lines, line: (text = '') => lines.push(text) };
}

/** The indexes of `fragments` in `text`, in the order given (-1 when missing). */
function positions(text: string, fragments: string[]): number[] {
  return fragments.map((fragment) => text.indexOf(fragment));
}

describe('parley voice-demo', () => {
  test('runs the call on the simulator: spoken question, tool call, spoken answer, barge-in, ephemeral code', async () => {
    const out = capture();
    const summary = await runVoiceDemo(out, fastForward());
    expect(summary).toEqual({
      toolCalls: 1,
      spokenReplies: 3,
      audioMs: 1200 + 1550 + 1500,
      heardMs: 700,
      truncatedAtMs: 700,
      ephemeralTranscript: 'Your one-time code is 4 7 1 1.',
      historyBefore: 5,
      historyAfter: 5,
    });
    const text = out.lines.join('\n');
    const fragments = [
      'session    connected: OpenAIRealtimeModel → ws://127.0.0.1',
      'caller     🎙 (1140 ms of speech, committed)',
      '↳ transcribed: "What is my balance?"',
      'Teller     ⚙ get_balance({"accountId":"ACC-42"})',
      '↳ get_balance returned {"balance":120,"currency":"EUR"}',
      'Teller     🔊 "Your balance is 120 euros." (1200 ms of audio, heard in full)',
      'caller     ⌨ "Can you read me my last three payments?"',
      'Teller     🔊 "Your last three payments were:…" (1550 ms of audio so far, still talking)',
      'caller     ✋ barges in after hearing 700 ms: session.interrupt()',
      'session    ⏹ audio_interrupted: stop local playback now',
      '↳ response_done: cancelled',
      'session    ✂ conversation.item.truncate at 700 ms',
      '↳ history keeps the message as interrupted: "Your last three payments were: "',
      'history    5 items before the one-time code',
      'Teller     🔒 out of band: "Your one-time code is 4 7 1 1." (1500 ms of audio)',
      "history    5 items after; the code is not in the history and not in the model's context",
    ];
    const order = positions(text, fragments);
    expect(order.map((index, i) => (index < 0 ? fragments[i] : 'found'))).toEqual(
      fragments.map(() => 'found'),
    );
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(out.lines.at(-1)).toBe(
      '1 tool call, 3 spoken replies (4250 ms of audio), 1 barge-in (heard 700 ms, truncated at 700 ms), ' +
        '1 ephemeral reply; history 5 → 5 items.',
    );
  });

  test('prints the same transcript every time', async () => {
    const first = capture();
    const second = capture();
    await runVoiceDemo(first, fastForward());
    await runVoiceDemo(second, fastForward());
    expect(second.lines).toEqual(first.lines);
  });

  // `main` runs the demo as users see it: paced in real time (about 3 s).
  test('main dispatches voice-demo and lists it in the usage', { timeout: 20_000 }, async () => {
    const out = capture();
    expect(await main(['voice-demo'], out)).toBe(0);
    expect(out.lines.at(-1)).toMatch(/^1 tool call, 3 spoken replies/);
    const help = capture();
    expect(await main(['help'], help)).toBe(0);
    expect(help.lines.join('\n')).toMatch(/^ {2}voice-demo {2}Run a scripted realtime voice call/m);
    const err = capture();
    expect(await main(['voice-demo', 'extra'], capture(), err)).toBe(2);
    expect(err.lines[0]).toBe('parley: unknown command "voice-demo extra"');
  });
});
