import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, runPhoneCall } from '@parley/cli';
import { FastForwardClock } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { capture } from './capture.js';

describe('parley phone', () => {
  test('a call end to end: tool call, barge-in truncated at the last echoed mark, DTMF, hang-up, the WAV as heard', async () => {
    const out = capture();
    const wavPath = join(tmpdir(), `parley-phone-${process.pid}.wav`);
    const summary = await runPhoneCall(out, { wavPath, clock: new FastForwardClock() });
    expect(summary.toolCalls).toEqual(['check_prescription']);
    expect(summary.digits).toEqual(['1']);
    expect(summary.endReason).toBe('stop');
    // The answer was cut where Twilio's marks say the caller was when the provider heard the barge-in (≥ 2 s).
    expect(summary.truncatedAtMs).toBeGreaterThanOrEqual(summary.heardAtBargeInMs);
    expect(summary.truncatedAtMs).toBeLessThan(6000);
    expect(summary.turns.map((t) => t.outcome)).toEqual(['full', 'partial', 'full', 'partial']);
    const wav = await readFile(wavPath);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(24)).toBe(8000);
    // PCM16: two bytes per µ-law byte the caller heard.
    expect(wav.readUInt32LE(40)).toBe(summary.heardAudio.byteLength * 2);
    const text = out.text();
    for (const fragment of [
      '⚙ check_prescription({"prescriptionId":"RX-1001"})',
      '✋ barges in',
      `the answer is truncated at ${summary.truncatedAtMs} ms (the last acknowledged mark)`,
      '# pressed 1',
      '📴 hangs up mid-answer',
    ]) {
      expect(text).toContain(fragment);
    }
  });

  test('an unknown provider is a usage error', async () => {
    const out = capture();
    const err = capture();
    const code = await main(['phone', '--provider', 'gemini'], { out, err, env: {} });
    expect(code).not.toBe(0);
    expect(err.text()).toMatch(/openai/);
  });
});
