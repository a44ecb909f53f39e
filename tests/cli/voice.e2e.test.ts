import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { speechAudio } from '@parley/simulator';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inOrder, runParley } from './run-parley.js';
import { readWav, writeWav } from './wav-file.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-e2e-voice-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function samples(pcm: Uint8Array): Int16Array {
  return new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength));
}

/** Each sample twice: the same sound at twice the rate. */
function doubled(mono: Int16Array): Int16Array {
  const out = new Int16Array(mono.length * 2);
  for (let i = 0; i < mono.length; i++) out[2 * i] = out[2 * i + 1] = mono[i] as number;
  return out;
}

async function expectAnswerWav(path: string, durationMs: number): Promise<void> {
  const facts = await readWav(path);
  expect(facts).toMatchObject({ format: 1, channels: 1, sampleRate: 24_000, bitsPerSample: 16, durationMs });
  expect(facts.rms).toBeGreaterThan(0.1);
}

describe('parley voice', () => {
  test('--say: the simulator synthesizes the question; transcript, tool call and answer printed, answer as WAV', async () => {
    const out = join(dir, 'say.wav');
    const { code, stdout, stderr } = await runParley(
      ['voice', '--say', 'What is my balance?', '--out', out],
      {
        timeoutMs: 30_000,
      },
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const transcript = inOrder(stdout, [
      'on the OpenAI Realtime simulator on 127.0.0.1:',
      'caller     🎙 "What is my balance?", synthesized: 1140 ms, committed',
      '↳ transcribed: "What is my balance?"',
      'Teller     ⚙ get_balance({"account":"checking"})',
      '↳ get_balance returned {"account":"checking","balance":120,"currency":"EUR"}',
      'Teller     🔊 "Your checking account holds 120 euros."',
      `The answer (1200 ms of audio, 24000 Hz mono): ${out}`,
    ]);
    expect(transcript).toEqual({ missing: [], ordered: true });
    await expectAnswerWav(out, 1200);
  });

  // The simulator "hears" words it synthesized from marks in the samples' low bytes. The one resampler low-pass
  // filters (as real audio needs), which rewrites every sample: those marks survive only a file at the session's rate.
  test('--in a 48 kHz stereo WAV: mixed down and resampled to 24 kHz mono, sent and answered', async () => {
    const mono = samples(speechAudio('I lost my card.'));
    const question = join(dir, 'question-48k-stereo.wav');
    await writeWav(question, [doubled(mono), doubled(mono)], 48_000);
    const out = join(dir, 'answer.wav');
    const { code, stdout, stderr } = await runParley(['voice', '--in', question, '--out', out], {
      timeoutMs: 30_000,
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(
      inOrder(stdout, [
        'caller     🎙 question-48k-stereo.wav: 900 ms, 48000 Hz 2 channels → 24000 Hz mono, committed',
        '↳ transcribed: (no words recognized)',
        'Teller     🔊 "Sorry, I can only help with balances, limits and lost cards."',
        `The answer (3000 ms of audio, 24000 Hz mono): ${out}`,
      ]),
    ).toEqual({ missing: [], ordered: true });
    await expectAnswerWav(out, 3000);
  });

  test('--in a 16 kHz mono WAV of plain sound: resampled, sent, no words recognized, still answered', async () => {
    const tone = new Int16Array(16_000).map((_, i) =>
      Math.round(Math.sin((2 * Math.PI * 440 * i) / 16_000) * 8000),
    );
    const question = join(dir, 'tone-16k.wav');
    await writeWav(question, [tone], 16_000);
    const out = join(dir, 'tone-answer.wav');
    const { code, stdout } = await runParley(['voice', '--in', question, '--out', out], {
      timeoutMs: 30_000,
    });
    expect(code).toBe(0);
    expect(stdout).toContain('caller     🎙 tone-16k.wav: 1000 ms, 16000 Hz mono → 24000 Hz mono, committed');
    expect(stdout).toContain('↳ transcribed: (no words recognized)');
    expect(stdout).toContain('Teller     🔊 "Sorry, I can only help with balances, limits and lost cards."');
    await expectAnswerWav(out, 3000);
  });

  test.each([
    [['voice'], 2, 'parley voice: give the question as --in FILE or --say "text" (one of them).'],
    [
      ['voice', '--in', 'a.wav', '--say', 'hi'],
      2,
      'parley voice: give the question as --in FILE or --say "text" (one of them).',
    ],
    [
      ['voice', '--say', 'hi', '--provider', 'openai'],
      2,
      'parley voice: --say needs the simulator (it synthesizes the words); give --in FILE with real speech for --provider openai.',
    ],
    [
      ['voice', '--say', 'hi', '--provider', 'opnai'],
      2,
      'parley voice: --provider opnai is not one of simulator, openai, azure; did you mean --provider openai?',
    ],
  ])('`parley %j` explains the mistake in one line (exit %i)', async (args, exitCode, message) => {
    expect(await runParley(args)).toEqual({ code: exitCode, stdout: '', stderr: `${message}\n` });
  });

  test('--provider openai without OPENAI_API_KEY names it before connecting; a non-WAV --in is refused', async () => {
    const question = join(dir, 'q.wav');
    await writeWav(question, [new Int16Array(2400)], 24_000);
    const missing = await runParley(['voice', '--in', question, '--provider', 'openai']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toContain(
      'parley: --provider openai needs OPENAI_API_KEY in the environment; not set: OPENAI_API_KEY.',
    );
    const text = join(dir, 'notes.txt');
    await writeFile(text, 'not audio');
    const notWav = await runParley(['voice', '--in', text]);
    expect(notWav).toEqual({
      code: 1,
      stdout: '',
      stderr: `parley: ${text} is not a WAV file (no RIFF/WAVE header); give a .wav file.\n`,
    });
  });
});
