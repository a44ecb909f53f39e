import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, runLiveDemo } from '@parley/cli';
import { describe, expect, test } from 'vitest';
import { capture } from './capture.js';

describe('the GPT-Live demo (parley demo --api live)', () => {
  test('the voice delegates twice; Bank answers with a tool call, then one that waits for the approval', async () => {
    const out = capture();
    const wavPath = join(tmpdir(), `parley-live-demo-${process.pid}.wav`);
    const summary = await runLiveDemo(out, { wavPath });
    expect(summary.delegations).toBe(2);
    expect(summary.approvals).toBe(1);
    expect(summary.toolCalls.map((c) => [c.name, c.arguments])).toEqual([
      ['get_balance', '{"account":"checking"}'],
      ['block_card', '{"last4":"4242"}'],
    ]);
    const said = summary.spoken.join(' ');
    expect(said).toContain('Your checking account holds 120 euros.');
    expect(said).toContain('I blocked the card ending in 4242');
    // The acknowledgement came before the approval, and the blocked card only after it.
    const text = out.text();
    const fragments = [
      '🎙',
      '↳ transcribed: "What is my balance?"',
      'Voice      ⇢ delegates',
      'Bank       ⚙ get_balance({"account":"checking"})',
      'Voice      🔊 "',
      '↳ transcribed: "I lost my card ending in 4242. Please block it."',
      'Bank       ⏸ block_card({"last4":"4242"}) needs approval',
      'Voice      🔊 "One moment, let me check."',
      "app        ✔ session.approve('",
      'Bank       ⚙ block_card({"last4":"4242"})',
      'session    ⤷ context_appended: commentary',
      'Voice      🔊 "I blocked the card ending in 4242',
    ];
    // Each fragment after the one before it.
    let at = 0;
    const missing = fragments.filter((fragment) => {
      const found = text.indexOf(fragment, at);
      if (found < 0) return true;
      at = found + fragment.length;
      return false;
    });
    expect(missing).toEqual([]);
    const wav = await readFile(wavPath);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(40)).toBe(summary.heardAudio.byteLength);
    expect(summary.heardAudio.byteLength).toBeGreaterThan(48 * 3000);
  });
});

describe('parley demo --api live: usage', () => {
  test.each([[['--provider', 'openai']], [['--audio-format', 'g711_ulaw']], [['--text']]])(
    '%j is refused before anything starts (exit 2, a sentence saying what to leave out)',
    async (extra) => {
      const out = capture();
      const err = capture();
      expect(await main(['demo', '--api', 'live', ...extra], { out, err })).toBe(2);
      expect(out.text()).toBe('');
      expect(err.text()).toContain(
        'parley demo: --api live runs on the embedded GPT-Live simulator in PCM16',
      );
    },
  );
});
