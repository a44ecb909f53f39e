import { runGeminiDemo } from '@parley/cli';
import { FastForwardClock } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { capture } from './capture.js';

describe('the Gemini voice demo (parley demo --provider gemini)', () => {
  test('runs on the embedded simulator: a tool call, a barge-in, and a recycle that resumes the session', async () => {
    const out = capture();
    const summary = await runGeminiDemo(out, { env: {}, simulatorClock: new FastForwardClock() });
    expect(summary).toMatchObject({
      toolCalls: 2,
      bargeIns: 1,
      recycled: true,
      resumed: true,
      replayedItems: 0,
    });
    // The service kept every turn so far: two questions with their calls and answers, the cut answer, the third.
    expect(summary.serviceTurnsAfterRecycle).toBeGreaterThanOrEqual(8);
    expect(summary.answers).toEqual([
      'Your checking account holds 120 euros.',
      // What the caller heard of the long answer before speaking over it.
      'The bank sta',
      'Your savings hold 2400 euros.',
      'Your checking and your savings account.',
    ]);
    const text = out.text();
    expect(text).toContain('the embedded Gemini Live simulator');
    expect(text).toContain('🔧 get_balance({"account":"checking"})');
    expect(text).toContain('barge-in: response cancelled (user_turn)');
    expect(text).toContain('recycled: resumed the service session, 0 item(s) replayed');
    expect(text).toContain(
      '2 tool call(s), 1 barge-in(s), 1 recycle (resumed, 0 replayed), 4 spoken answers.',
    );
  });
});
