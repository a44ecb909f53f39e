import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CommandSpec } from '../cli/command.js';
import { CliUsageError } from '../cli/errors.js';
import type { RealtimeProviderName } from '../providers/realtime-target.js';
import { questionFromText, questionFromWav } from '../voice/question-audio.js';
import { runVoiceTurn } from '../voice/run-voice-turn.js';

/** `parley voice`: one voice turn from a WAV file (or a synthesized question), the answer as WAV. */
export const voiceCommand: CommandSpec = {
  name: 'voice',
  summary:
    'One voice turn: a question from a WAV file (or --say), the transcript, tool calls, the answer as WAV',
  usage: [
    'voice --in question.wav [--out answer.wav] [--provider simulator|openai|azure]',
    'voice --say "What is my balance?" [--out answer.wav]',
  ],
  flags: {
    in: {
      type: 'string',
      value: 'FILE',
      description: 'The question: a WAV file of any rate and channel count',
    },
    say: { type: 'string', value: 'TEXT', description: 'The question as text, synthesized by the simulator' },
    out: {
      type: 'string',
      value: 'FILE',
      description: 'Where to write the answer (WAV, 24 kHz mono). Default: a file in the temp folder',
    },
    provider: {
      type: 'string',
      choices: ['simulator', 'openai', 'azure'],
      description:
        'simulator (embedded, offline; the default), openai (OPENAI_API_KEY, OPENAI_REALTIME_MODEL), azure (AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY, AZURE_OPENAI_DEPLOYMENT)',
    },
  },
  notes: [
    'The agent is the demo’s bank teller (balances, card limit, a handoff to Cards for lost cards).',
    'The simulator understands only the speech it synthesizes (--say): other audio reaches it, but it hears no words.',
  ],
  async run(flags, io) {
    const provider = (
      typeof flags.provider === 'string' ? flags.provider : 'simulator'
    ) as RealtimeProviderName;
    const inPath = typeof flags.in === 'string' ? flags.in : undefined;
    const say = typeof flags.say === 'string' ? flags.say : undefined;
    if ((inPath === undefined) === (say === undefined))
      throw new CliUsageError('parley voice: give the question as --in FILE or --say "text" (one of them).');
    if (say !== undefined && provider !== 'simulator')
      throw new CliUsageError(
        `parley voice: --say needs the simulator (it synthesizes the words); give --in FILE with real speech for --provider ${provider}.`,
      );
    const question = inPath !== undefined ? await questionFromWav(inPath) : questionFromText(say as string);
    const outPath = resolve(
      typeof flags.out === 'string' ? flags.out : join(tmpdir(), 'parley-voice-answer.wav'),
    );
    await runVoiceTurn({ question, outPath, provider, env: io.env, out: io.out });
    return 0;
  },
};
