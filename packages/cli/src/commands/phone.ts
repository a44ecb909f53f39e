import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CommandSpec } from '../cli/command.js';
import { CliUsageError } from '../cli/errors.js';
import { PHONE_PROVIDERS, type PhoneProviderName } from '../phone/phone-provider.js';
import { runPhoneCall } from '../phone/run-phone-call.js';
import { runSipPhoneCall } from '../phone/run-sip-call.js';

/** `parley phone`: a phone call end to end, simulated caller → Twilio bridge → session → simulator. */
export const phoneCommand: CommandSpec = {
  name: 'phone',
  summary:
    'A phone call on this machine: a simulated Twilio caller → the @parley/twilio bridge → a RealtimeSession → the simulator',
  usage: [`phone [--out FILE] [--provider ${PHONE_PROVIDERS.join('|')}]`, 'phone --sip [--out FILE]'],
  flags: {
    out: {
      type: 'string',
      value: 'FILE',
      description:
        'Where to write the call as the caller heard it (WAV, 8 kHz mono). Default: a file in the temp folder',
    },
    sip: {
      type: 'boolean',
      description:
        "The call over OpenAI's SIP path on the GPT-Live simulator: a signed webhook, answerSipCall, the sideband (written as a 24 kHz WAV)",
    },
    provider: {
      type: 'string',
      choices: [...PHONE_PROVIDERS],
      description:
        "The simulated provider: openai (the OpenAI Realtime simulator, G.711 µ-law passed through; the default), gemini (the Gemini Live simulator, µ-law converted to and from PCM16 by the session's AudioConverter) or live (the GPT-Live simulator: the voice delegates, a delegate agent calls the tool)",
    },
  },
  notes: [
    "With --sip the same call takes OpenAI's SIP path on GPT-Live: the simulator rings a signed webhook, the app",
    "answers it with answerSipCall (a RealtimeSession on the call's sideband) and a simulated phone line speaks.",
    'The caller asks, the agent calls a tool and answers; the caller barges in and the answer is truncated at the',
    'last mark Twilio echoed (what the caller really heard), then presses a key (DTMF) and hangs up mid-answer.',
  ],
  async run(flags, io) {
    const provider = flags.provider ?? 'openai';
    if (!PHONE_PROVIDERS.includes(provider as PhoneProviderName)) {
      throw new CliUsageError(
        `parley phone: --provider ${String(provider)} is not supported; use ${PHONE_PROVIDERS.join(' or ')}.`,
      );
    }
    const wavPath = resolve(
      typeof flags.out === 'string' ? flags.out : join(tmpdir(), 'parley-phone-call.wav'),
    );
    if (flags.sip === true && flags.provider !== undefined && provider !== 'live') {
      throw new CliUsageError(
        `parley phone --sip runs GPT-Live's SIP path; leave out --provider (or use --provider live), not ${String(provider)}.`,
      );
    }
    const summary =
      flags.sip === true
        ? await runSipPhoneCall(io.out, { wavPath })
        : await runPhoneCall(io.out, { wavPath, provider: provider as PhoneProviderName });
    const cut =
      summary.truncatedAtMs === undefined
        ? `${summary.heardAtInterruptionMs ?? '—'} ms heard, no truncation on this provider`
        : `truncated at ${summary.truncatedAtMs} ms`;
    io.out.line(
      `${summary.toolCalls.length} tool call, 1 barge-in (${summary.heardAtBargeInMs} ms heard when it began, ${cut}), ` +
        `${summary.digits.length} key pressed, ${summary.turns.length} turns; the call ended: ${summary.endReason}.`,
    );
    return 0;
  },
};
