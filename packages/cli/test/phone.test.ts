import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, runPhoneCall, runSipPhoneCall } from '@parley/cli';
import { FastForwardClock } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { capture } from './capture.js';

describe('parley phone', () => {
  // One call per provider: OpenAI Realtime takes the line's µ-law as it is; Gemini Live takes PCM16 16 kHz and
  // speaks 24 kHz, so the session converts both ways.
  test.each(['openai', 'gemini', 'live'] as const)(
    '%s: tool call, barge-in cut at the last echoed mark, DTMF, hang-up, the WAV as heard',
    async (provider) => {
      const out = capture();
      const wavPath = join(tmpdir(), `parley-phone-${provider}-${process.pid}.wav`);
      const summary = await runPhoneCall(out, { wavPath, provider, clock: new FastForwardClock() });
      expect(summary.toolCalls).toEqual(['check_prescription']);
      expect(summary.digits).toEqual(['1']);
      expect(summary.endReason).toBe('stop');
      // What the session counts as heard is what Twilio's marks say (≥ what was echoed when the barge-in began, and
      // less than the whole 6 s answer).
      expect(summary.heardAtInterruptionMs).toBeGreaterThanOrEqual(summary.heardAtBargeInMs);
      expect(summary.heardAtInterruptionMs).toBeLessThan(6000);
      if (provider === 'openai') expect(summary.truncatedAtMs).toBe(summary.heardAtInterruptionMs);
      else expect(summary.truncatedAtMs).toBeUndefined();
      expect(summary.turns.map((t) => t.outcome)).toContain('partial');
      expect(summary.turns.at(-1)?.outcome).toBe('partial');
      // GPT-Live takes its turns by itself: the key reached it as commentary, which it speaks about.
      if (provider === 'live') expect(summary.turns.at(-1)?.transcript).toContain('The caller pressed 1');
      const wav = await readFile(wavPath);
      expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
      expect(wav.readUInt32LE(24)).toBe(8000);
      // PCM16: two bytes per µ-law byte the caller heard.
      expect(wav.readUInt32LE(40)).toBe(summary.heardAudio.byteLength * 2);
      const text = out.text();
      for (const fragment of [
        '⚙ check_prescription({"prescriptionId":"RX-1001"})',
        '✋ barges in',
        '(the last acknowledged mark)',
        '# pressed 1',
        '📴 hangs up mid-answer',
      ]) {
        expect(text).toContain(fragment);
      }
    },
  );

  test('--sip: a signed webhook answered once, the call on the GPT-Live sideband: tool, barge-in, DTMF, hang-up, the WAV', async () => {
    const out = capture();
    const wavPath = join(tmpdir(), `parley-phone-sip-${process.pid}.wav`);
    const summary = await runSipPhoneCall(out, { wavPath, clock: new FastForwardClock() });
    expect(summary.toolCalls).toEqual(['check_prescription']);
    // The line played the answer for a while; the cut is where the line was when GPT-Live stopped (service playback).
    expect(summary.heardAtInterruptionMs).toBeGreaterThanOrEqual(summary.heardAtBargeInMs);
    expect(summary.heardAtInterruptionMs).toBeLessThan(6000);
    expect(summary.turns.map((t) => t.outcome)).toContain('partial');
    // The key reached the app from the call (provider DTMF), and the model as commentary it spoke about.
    expect(summary.digits).toEqual(['1']);
    expect(summary.turns.at(-1)?.transcript).toContain('The caller pressed 1');
    expect(summary.endReason).toBe('hang_up');
    const wav = await readFile(wavPath);
    expect(wav.readUInt32LE(24)).toBe(24000);
    expect(wav.readUInt32LE(40)).toBe(summary.heardAudio.byteLength);
    const text = out.text();
    expect(text).toContain('4 deliveries (2 event types × 2), HTTP 200, 200, 200, 200: one handler ran');
    expect(text).toContain('⚙ check_prescription({"prescriptionId":"RX-1001"})');
    expect(text).toContain('✋ barges in');
  });

  test('--sip with another provider is a usage error', async () => {
    const err = capture();
    const code = await main(['phone', '--sip', '--provider', 'openai'], { out: capture(), err, env: {} });
    expect(code).not.toBe(0);
    expect(err.text()).toMatch(/--sip/);
  });

  test('an unknown provider is a usage error', async () => {
    const out = capture();
    const err = capture();
    const code = await main(['phone', '--provider', 'azure'], { out, err, env: {} });
    expect(code).not.toBe(0);
    expect(err.text()).toMatch(/openai/);
  });
});
