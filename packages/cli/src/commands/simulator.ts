import { readFile } from 'node:fs/promises';
import {
  type BrainResponse,
  echoBrain,
  type RealtimeBrain,
  type SimulatorAuth,
  type SimulatorPacing,
  scriptedBrain,
  startGeminiSimulator,
  startLiveSimulator,
  startRealtimeSimulator,
} from '@parley/simulator';
import { z } from 'zod';
import type { CliIO, CommandSpec, FlagValues } from '../cli/command.js';
import { CliUsageError } from '../cli/errors.js';

function port(value: string | boolean | undefined): number {
  if (value === undefined) return 8787;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535)
    throw new CliUsageError(
      `parley simulator: --port ${String(value)} is not a port; give 0–65535 (0: any free port).`,
    );
  return n;
}

function number(flags: FlagValues, name: string, min: number, exclusive: boolean): number | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || (exclusive && n === min))
    throw new CliUsageError(
      `parley simulator: --${name} ${String(value)} is not valid; give a number ${exclusive ? '>' : '≥'} ${min}.`,
    );
  return n;
}

function pace(flags: FlagValues): SimulatorPacing {
  const firstOutputMs = number(flags, 'first-output-ms', 0, false);
  const speed = number(flags, 'speed', 0, true);
  if (flags.instant === true) {
    if (firstOutputMs !== undefined || speed !== undefined)
      throw new CliUsageError(
        'parley simulator: --instant has no pace; leave out --first-output-ms and --speed.',
      );
    return 'instant';
  }
  return { ...(firstOutputMs !== undefined && { firstOutputMs }), ...(speed !== undefined && { speed }) };
}

function auth(flags: FlagValues): SimulatorAuth {
  const kind = (flags.auth as 'none' | 'openai' | 'azure' | undefined) ?? 'openai';
  const key = typeof flags['api-key'] === 'string' ? [flags['api-key']] : undefined;
  if (kind === 'none') {
    if (key) throw new CliUsageError('parley simulator: --api-key needs --auth openai or --auth azure.');
    return { kind };
  }
  return key ? { kind, apiKeys: key } : { kind };
}

/** A scripted output object (a plain string is a message too). */
const scriptOutput = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('message'),
    text: z.string(),
    audioMs: z.number().positive().optional(),
    transcriptDeltas: z.boolean().optional(),
  }),
  z.strictObject({
    type: z.literal('function_call'),
    name: z.string().min(1),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    callId: z.string().min(1).optional(),
  }),
  z.strictObject({ type: z.literal('fail'), code: z.string().optional(), message: z.string().optional() }),
]);

/** Why `response` (at `path`) is not a response: a string, an output, or a list of outputs (e.g. parallel calls). */
function responseProblem(response: unknown, path: string): string | undefined {
  if (typeof response === 'string') return undefined;
  if (Array.isArray(response)) {
    for (const [i, output] of response.entries()) {
      const problem = Array.isArray(output)
        ? `${path}[${i}]: a list inside a list`
        : responseProblem(output, `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  const parsed = scriptOutput.safeParse(response);
  if (parsed.success) return undefined;
  const [issue] = parsed.error.issues;
  return `${path}${issue?.path.map((p) => `.${String(p)}`).join('') ?? ''}: ${issue?.message ?? 'invalid'}`;
}

/** Reads a brain script: a JSON array of responses (a string, an output, or a list of outputs per response). */
async function scriptBrain(path: string): Promise<RealtimeBrain> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new CliUsageError(`parley simulator: cannot read the script ${path}: ${(error as Error).message}`);
  }
  const problem = Array.isArray(json)
    ? json.map((response, i) => responseProblem(response, `[${i}]`)).find((p) => p !== undefined)
    : 'not a JSON array';
  if (problem !== undefined) {
    throw new CliUsageError(
      `parley simulator: the script ${path} is not a list of responses (${problem}); ` +
        'e.g. ["Hello!", {"type":"function_call","name":"get_time"}] (see docs/simulator.md).',
    );
  }
  return scriptedBrain(json as BrainResponse[], echoBrain);
}

/** Ended connections `parley simulator` remembers (older ones are forgotten: it runs for days). */
const KEEP_ENDED_CONNECTIONS = 8;

/** `parley simulator`: the OpenAI Realtime simulator as a standalone server on 127.0.0.1. */
export const simulatorCommand: CommandSpec = {
  name: 'simulator',
  summary: 'Serve the OpenAI Realtime simulator on 127.0.0.1 (point OpenAIRealtimeModel or any client at it)',
  usage: [
    'simulator [--port 8787] [--first-output-ms 500] [--speed 5] [--auth openai|azure|none] [--api-key KEY] [--script FILE]',
    'simulator --instant …',
    'simulator --api live [--port 8787] [--auth openai|azure] [--api-key KEY]',
    'simulator --api gemini [--port 8787] [--first-output-ms 500] [--speed 5] [--instant] [--api-key KEY]',
  ],
  flags: {
    port: {
      type: 'string',
      value: 'PORT',
      description: 'The port on 127.0.0.1 (0: any free port). Default 8787',
    },
    'first-output-ms': {
      type: 'string',
      value: 'MS',
      description: 'Time from response.created to the first output. Default 500',
    },
    speed: { type: 'string', value: 'N', description: 'Generation speed, times real time. Default 5' },
    instant: { type: 'boolean', description: 'No pacing: every response streams at once' },
    auth: {
      type: 'string',
      choices: ['openai', 'azure', 'none'],
      description: 'The URL form and credentials it accepts. Default openai (any non-empty key)',
    },
    'api-key': {
      type: 'string',
      value: 'KEY',
      description: 'Accept only this key (with --auth openai or azure)',
    },
    api: {
      type: 'string',
      choices: ['realtime', 'live', 'gemini'] satisfies SimulatorApi[],
      description:
        'realtime (the OpenAI Realtime API, the default), live: the GPT-Live simulator (/v1/live/sessions, paced by the input audio), or gemini: the Gemini Live simulator (BidiGenerateContent)',
    },
    script: {
      type: 'string',
      value: 'FILE',
      description:
        'A JSON array of what the model says, one entry per response, then it echoes. Default: it echoes',
    },
  },
  notes: [
    'It speaks the GA Realtime protocol: text and audio in, a synthesized voice and transcripts out, tool calls,',
    'cancel and truncate. Stop it with Ctrl-C. See docs/simulator.md.',
    '--api live serves GPT-Live instead: its timeline advances with the input audio; it echoes what it hears',
    '(see docs/providers/openai-live.md).',
    '--api gemini serves Gemini Live (the Gemini API paths, key test-key unless --api-key); it echoes what it hears',
    '(see docs/providers/google.md).',
  ],
  run(flags, io) {
    return SIMULATORS[(flags.api as SimulatorApi | undefined) ?? 'realtime'](flags, io);
  },
};

/** `parley simulator` (`--api realtime`): the OpenAI Realtime simulator until Ctrl-C. */
async function serveRealtime(flags: FlagValues, io: CliIO): Promise<number> {
  const brain = typeof flags.script === 'string' ? await scriptBrain(flags.script) : echoBrain;
  const sim = await startRealtimeSimulator({
    port: port(flags.port),
    pace: pace(flags),
    auth: auth(flags),
    brain,
    // A long-running service: it forgets ended connections but the last few, and drops a client that stops
    // reading once 16 MiB wait for it (the default maxBufferedBytes).
    keepEndedConnections: KEEP_ENDED_CONNECTIONS,
    onConnection: (connection) => {
      io.out.line(`  ${connection.id} connected`);
      return undefined;
    },
  });
  io.out.line(`OpenAI Realtime simulator listening on ${sim.url}`);
  io.out.line(`  new OpenAIRealtimeModel({ url: '${sim.url}', apiKey: 'any' })   ·   Ctrl-C stops it`);
  await untilStopped();
  await sim.close();
  io.out.line('Simulator stopped.');
  return 0;
}

/** `parley simulator --api live`: the GPT-Live simulator until Ctrl-C. */
async function serveLive(flags: FlagValues, io: CliIO): Promise<number> {
  const realtimeOnly = ['first-output-ms', 'speed', 'instant', 'script'].filter(
    (f) => flags[f] !== undefined,
  );
  if (realtimeOnly.length > 0 || flags.auth === 'none')
    throw new CliUsageError(
      `parley simulator: --api live takes ${flags.auth === 'none' ? 'a key (no --auth none)' : `no --${realtimeOnly[0]}`}: ` +
        'GPT-Live is paced by the input audio; its options are --port, --auth openai|azure and --api-key.',
    );
  const sim = await startLiveSimulator({
    port: port(flags.port),
    azure: flags.auth === 'azure',
    ...(typeof flags['api-key'] === 'string' && { apiKeys: [flags['api-key']] }),
  });
  io.out.line(`OpenAI GPT-Live simulator listening on ${sim.url}`);
  io.out.line(`  new OpenAILiveModel({ url: '${sim.url}', apiKey: 'any' })   ·   Ctrl-C stops it`);
  const stopLogging = sim.onClientEvent(({ event }) => {
    if ((event as { type?: unknown } | undefined)?.type !== 'session.start') return;
    const before = sim.sessions.length;
    // The simulator starts the session right after recording the event (or refuses it).
    queueMicrotask(() => {
      const started = sim.sessions[before];
      if (started) io.out.line(`  ${started.id} started`);
    });
  });
  await untilStopped();
  stopLogging();
  await sim.close();
  io.out.line('Simulator stopped.');
  return 0;
}

/** `parley simulator --api gemini`: the Gemini Live simulator until Ctrl-C. */
async function serveGemini(flags: FlagValues, io: CliIO): Promise<number> {
  const openaiOnly = ['auth', 'script'].filter((f) => flags[f] !== undefined);
  if (openaiOnly.length > 0)
    throw new CliUsageError(
      `parley simulator: --api gemini takes no --${openaiOnly[0]}: its options are --port, --first-output-ms, ` +
        '--speed, --instant and --api-key.',
    );
  const apiKey = typeof flags['api-key'] === 'string' ? flags['api-key'] : 'test-key';
  const sim = await startGeminiSimulator({ port: port(flags.port), pace: pace(flags), apiKeys: [apiKey] });
  io.out.line(`Gemini Live simulator listening on ${sim.wsBaseUrl}`);
  io.out.line(
    `  new GeminiLiveModel({ baseUrl: '${sim.wsBaseUrl}', apiKey: '${apiKey}' })   ·   Ctrl-C stops it`,
  );
  const stopLogging = sim.onClientMessage((message, connection) => {
    if ('setup' in message) io.out.line(`  connection ${connection + 1} set up (${message.setup.model})`);
  });
  await untilStopped();
  stopLogging();
  await sim.close();
  io.out.line('Simulator stopped.');
  return 0;
}

/** What `--api` serves: one entry per protocol. */
const SIMULATORS = {
  realtime: serveRealtime,
  live: serveLive,
  gemini: serveGemini,
} satisfies Record<string, (flags: FlagValues, io: CliIO) => Promise<number>>;

type SimulatorApi = keyof typeof SIMULATORS;

function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
