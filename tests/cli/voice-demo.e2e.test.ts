import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const bin = require.resolve('@parley/cli/package.json').replace(/package\.json$/, 'bin/parley.js');

// The binary runs the demo as users see it: the simulator paces its responses in real time (about 3 s).
test('the built `parley voice-demo` binary runs the call on the simulator and exits 0', {
  timeout: 30_000,
}, async () => {
  const { stdout, stderr } = await run(process.execPath, [bin, 'voice-demo'], {
    env: { PATH: process.env.PATH ?? '' },
    timeout: 30_000,
  });
  expect(stderr).toBe('');
  const lines = [
    'Teller     ⚙ get_balance({"accountId":"ACC-42"})',
    'Teller     🔊 "Your balance is 120 euros." (1200 ms of audio, heard in full)',
    'session    ⏹ audio_interrupted: stop local playback now',
    'session    ✂ conversation.item.truncate at 700 ms',
    'Teller     🔒 out of band: "Your one-time code is 4 7 1 1." (1500 ms of audio)',
  ].map((line) => stdout.indexOf(line));
  expect(lines.every((index) => index >= 0)).toBe(true);
  expect([...lines].sort((a, b) => a - b)).toEqual(lines);
  expect(stdout.trim().split('\n').at(-1)).toBe(
    '1 tool call, 3 spoken replies (4250 ms of audio), 1 barge-in (heard 700 ms, truncated at 700 ms), ' +
      '1 ephemeral reply; history 5 → 5 items.',
  );
});
