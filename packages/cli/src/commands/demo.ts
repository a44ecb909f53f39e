import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RealtimeAudioFormat } from '@parley/core';
import type { CommandSpec } from '../cli/command.js';
import { CliUsageError } from '../cli/errors.js';
import { runSupportDemo } from '../demo/run-demo.js';
import { runGeminiDemo } from '../gemini-demo/run-gemini-demo.js';
import { runLiveDemo } from '../live-demo/run-live-demo.js';
import type { RealtimeProviderName } from '../providers/realtime-target.js';
import { DEFAULT_DEMO_MEMORY_DIR, runVoiceDemo } from '../voice-demo/run-voice-demo.js';

/** `parley demo`: the realtime voice agent on the embedded simulator; `--text` for the text agent demo. */
export const demoCommand: CommandSpec = {
  name: 'demo',
  summary: 'Run a realtime voice agent on the embedded OpenAI Realtime simulator (no API key, no network)',
  usage: [
    'demo [--out FILE] [--memory DIR|none] [--provider simulator|openai|azure] [--audio-format pcm16|g711_ulaw|g711_alaw]',
    'demo --provider gemini',
    'demo --api live [--out FILE]',
    'demo --text',
  ],
  flags: {
    out: {
      type: 'string',
      value: 'FILE',
      description: "Where to write the agent's audio (WAV). Default: a file in the temp folder",
    },
    memory: {
      type: 'string',
      value: 'DIR',
      description:
        'Where the call is stored as the caller heard it: the embedded PGlite store in DIR (default: parley-demo-memory in the temp folder), or none',
    },
    provider: {
      type: 'string',
      choices: ['simulator', 'openai', 'azure', 'gemini'],
      description:
        'simulator (embedded, offline; the default), or the real service: openai (OPENAI_API_KEY), azure (AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY, AZURE_OPENAI_DEPLOYMENT); gemini: Gemini Live, on the real service with GEMINI_API_KEY (or GOOGLE_API_KEY; GEMINI_BASE_URL to point elsewhere), else on the embedded Gemini Live simulator',
    },
    'audio-format': {
      type: 'string',
      choices: ['pcm16', 'g711_ulaw', 'g711_alaw'],
      description:
        "The session's audio, both ways: pcm16 (24 kHz, the default) or G.711 g711_ulaw / g711_alaw (8 kHz, as phone lines carry); the WAV is PCM16 at that rate",
    },
    api: {
      type: 'string',
      choices: ['realtime', 'live'],
      description:
        'realtime (the OpenAI Realtime API, the default) or live: a GPT-Live voice agent (OpenAILiveModel) with a Parley agent as its delegated backend, on the embedded GPT-Live simulator',
    },
    text: { type: 'boolean', description: 'Run the text agent demo instead (Runner, mock model)' },
  },
  notes: [
    'The voice demo: a spoken question and a tool call, two parallel tool calls answered by one follow-up,',
    'a handoff, a barge-in truncated where the caller stopped listening, and an ephemeral one-time code that',
    'never enters the conversation, through OpenAIRealtimeModel over a WebSocket to the simulator on 127.0.0.1.',
    'The call is written as the caller heard it to the embedded memory store (PGlite) and read back at the end;',
    'then the caller rings back, and a second session, started from the store alone, remembers the first call.',
    '--api live: GPT-Live delegates instead of calling tools; the session answers each delegation with a Parley',
    "text agent (a tool call, and one that waits for the app's approval while the voice goes on).",
    '--provider gemini: GeminiLiveModel, a spoken question answered through a tool call, a barge-in, and a recycle',
    "on the service's goAway that resumes its session (nothing replayed).",
  ],
  async run(flags, io) {
    if (flags.api === 'live') {
      if (
        flags.text === true ||
        flags.provider !== undefined ||
        flags['audio-format'] !== undefined ||
        flags.memory !== undefined
      )
        throw new CliUsageError(
          'parley demo: --api live runs on the embedded GPT-Live simulator in PCM16; leave out --text, --provider, --audio-format and --memory.',
        );
      await runLiveDemo(io.out, {
        wavPath: resolve(typeof flags.out === 'string' ? flags.out : join(tmpdir(), 'parley-live-demo.wav')),
      });
      return 0;
    }
    if (flags.provider === 'gemini') {
      if (
        flags.text === true ||
        flags.out !== undefined ||
        flags['audio-format'] !== undefined ||
        flags.memory !== undefined
      )
        throw new CliUsageError(
          'parley demo: --provider gemini runs its own voice call in PCM16 and writes no WAV or memory; leave out --text, --out, --audio-format and --memory.',
        );
      await runGeminiDemo(io.out, { env: io.env });
      return 0;
    }
    if (flags.text === true) {
      if (flags.provider !== undefined || flags['audio-format'] !== undefined || flags.memory !== undefined)
        throw new CliUsageError(
          'parley demo: --text runs on the mock model without audio; leave out --provider, --audio-format and --memory (or --text).',
        );
      await runSupportDemo(io.out);
      return 0;
    }
    const wavPath = resolve(
      typeof flags.out === 'string' ? flags.out : join(tmpdir(), 'parley-demo-agent.wav'),
    );
    const provider = (
      typeof flags.provider === 'string' ? flags.provider : 'simulator'
    ) as RealtimeProviderName;
    const audioFormat = (
      typeof flags['audio-format'] === 'string' ? flags['audio-format'] : 'pcm16'
    ) as RealtimeAudioFormat;
    const memory =
      flags.memory === 'none'
        ? false
        : { dataDir: resolve(typeof flags.memory === 'string' ? flags.memory : DEFAULT_DEMO_MEMORY_DIR) };
    await runVoiceDemo(io.out, { wavPath, provider, env: io.env, audioFormat, memory });
    return 0;
  },
};
