import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CommandSpec } from '../cli/command.js';
import { CliUsageError } from '../cli/errors.js';
import { runPhoneCall } from '../phone/run-phone-call.js';

/** `parley phone`: a phone call end to end, simulated caller → Twilio bridge → session → simulator. */
export const phoneCommand: CommandSpec = {
  name: 'phone',
  summary:
    'A phone call on this machine: a simulated Twilio caller → the @parley/twilio bridge → a RealtimeSession → the simulator',
  usage: ['phone [--out FILE] [--provider openai]'],
  flags: {
    out: {
      type: 'string',
      value: 'FILE',
      description:
        'Where to write the call as the caller heard it (WAV, 8 kHz mono). Default: a file in the temp folder',
    },
    provider: {
      type: 'string',
      choices: ['openai'],
      description:
        'The simulated provider: openai (the OpenAI Realtime simulator, G.711 µ-law end to end; the default)',
    },
  },
  notes: [
    'The caller asks, the agent calls a tool and answers; the caller barges in and the answer is truncated at the',
    'last mark Twilio echoed (what the caller really heard), then presses a key (DTMF) and hangs up mid-answer.',
  ],
  async run(flags, io) {
    if (flags.provider !== undefined && flags.provider !== 'openai') {
      throw new CliUsageError(
        `parley phone: --provider ${String(flags.provider)} is not supported; use openai.`,
      );
    }
    const wavPath = resolve(
      typeof flags.out === 'string' ? flags.out : join(tmpdir(), 'parley-phone-call.wav'),
    );
    const summary = await runPhoneCall(io.out, { wavPath });
    io.out.line(
      `${summary.toolCalls.length} tool call, 1 barge-in (heard ${summary.heardAtBargeInMs} ms, truncated at ` +
        `${summary.truncatedAtMs ?? '—'} ms), ${summary.digits.length} key pressed, ${summary.turns.length} turns; the call ended: ${summary.endReason}.`,
    );
    return 0;
  },
};
