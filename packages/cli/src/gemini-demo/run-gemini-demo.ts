import {
  type Clock,
  PCM16_BYTES_PER_MS,
  type RealtimeModel,
  RealtimeSession,
  type RealtimeSessionEventOf,
  ReportedPlaybackTracker,
  systemClock,
} from '@parley/core';
import { GeminiLiveModel } from '@parley/google';
import { type GeminiSimulator, speechAudio, startGeminiSimulator } from '@parley/simulator';
import type { Output } from '../output.js';
import { TranscriptPrinter } from '../transcript-printer.js';
import { nextEvent } from '../voice-demo/next-event.js';
import { guarded } from '../voice-demo/step-guard.js';
import {
  GEMINI_QUESTIONS,
  GEMINI_SIMULATOR_TURNS,
  geminiTellerAgent,
  STORY_HOLD_MS,
} from './gemini-script.js';

/** Options of {@link runGeminiDemo}. */
export interface GeminiDemoOptions {
  /**
   * Where the real service's key comes from (`GEMINI_API_KEY`, else `GOOGLE_API_KEY`; `GEMINI_BASE_URL` points
   * elsewhere, e.g. at `parley simulator --api gemini`). Without a key the demo runs on the embedded simulator.
   * Default `process.env`.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** The clock of the demo's stall guard. Default: the system clock. */
  clock?: Clock;
  /** How long one step may take before the demo gives up. Default 10 000 ms (30 000 on a real service). */
  stepTimeoutMs?: number;
  /** The clock the embedded simulator paces its turns on; tests pass a `FastForwardClock`. Default: the system clock. */
  simulatorClock?: Clock;
}

/** What the Gemini demo did, for callers and tests. */
export interface GeminiDemoSummary {
  /** Tool calls that ran. */
  toolCalls: number;
  /** Responses that ended cancelled because the caller spoke over them. */
  bargeIns: number;
  /** Whether the connection was recycled on the service's `goAway` (on the simulator: always). */
  recycled: boolean;
  /** Whether the recycle resumed the service's session (nothing but what its handle missed replayed). */
  resumed: boolean;
  /** Items the recycle replayed. */
  replayedItems: number;
  /** Turns of context the service held after the recycle (on the simulator only). */
  serviceTurnsAfterRecycle: number | undefined;
  /** The assistant's spoken answers, in order. */
  answers: string[];
}

/** How much of the long answer the caller hears before barging in on a real service. */
const SERVICE_HEARD_MS = 700;
/** The `goAway` notice the simulator gives (the session recycles between turns before it runs out). */
const GO_AWAY_MS = 4000;

/**
 * The voice agent demo on Gemini Live: a spoken question answered through a tool call, a barge-in over a long answer,
 * and a recycle on the service's `goAway` that resumes the session with its handle (nothing replayed), then a question
 * the kept context answers. On the embedded Gemini Live simulator by default (questions spoken, push-to-talk); with a
 * key, on the real service (questions typed: the demo has no speech synthesizer; a recycle only if the service sends
 * `goAway` meanwhile). The session and the simulator are closed on every path.
 */
export async function runGeminiDemo(
  output: Output,
  options: GeminiDemoOptions = {},
): Promise<GeminiDemoSummary> {
  const env = options.env ?? process.env;
  const printer = new TranscriptPrinter(output);
  const key = env.GEMINI_API_KEY || env.GOOGLE_API_KEY;
  const sim = key
    ? undefined
    : await startGeminiSimulator({ ...(options.simulatorClock && { clock: options.simulatorClock }) });
  try {
    const model: RealtimeModel = sim
      ? new GeminiLiveModel({ apiKey: 'test-key', baseUrl: sim.wsBaseUrl })
      : new GeminiLiveModel({ apiKey: key, ...(env.GEMINI_BASE_URL && { baseUrl: env.GEMINI_BASE_URL }) });
    const session = new RealtimeSession(geminiTellerAgent, {
      model,
      // On the simulator the session runs on its clock too: the recycle before goAway's limit comes on that clock.
      ...(sim && options.simulatorClock && { clock: options.simulatorClock }),
      // The demo "plays" the audio as it arrives and reports what the caller heard: nothing depends on timing.
      playbackTracker: new ReportedPlaybackTracker(),
      config: { turnDetection: null, inputTranscription: {} },
    });
    const step = <T>(name: string, promise: Promise<T>) =>
      guarded(options.clock ?? systemClock, options.stepTimeoutMs ?? (sim ? 10_000 : 30_000), name, promise);
    try {
      printer.title(
        sim
          ? `Parley voice demo on Gemini Live: GeminiLiveModel → the embedded Gemini Live simulator on ${new URL(sim.wsBaseUrl).host} (no API key, no network)`
          : `Parley voice demo on Gemini Live: GeminiLiveModel → ${env.GEMINI_BASE_URL ? new URL(env.GEMINI_BASE_URL).host : 'the Gemini API'}`,
      );
      return await runCall(session, sim, printer, step);
    } finally {
      await session.close();
    }
  } finally {
    await sim?.close();
  }
}

type Step = <T>(name: string, promise: Promise<T>) => Promise<T>;
type TurnDone = RealtimeSessionEventOf<'turn_done'>;

async function runCall(
  session: RealtimeSession,
  sim: GeminiSimulator | undefined,
  printer: TranscriptPrinter,
  step: Step,
): Promise<GeminiDemoSummary> {
  const answers: string[] = [];
  let toolCalls = 0;
  let bargeIns = 0;
  session.on('tool_started', (e) => {
    toolCalls++;
    printer.say('Teller', `🔧 ${e.name}(${e.arguments})`);
  });
  session.on('tool_done', (e) => printer.toolResult(e.name, e.output));
  session.on('audio_done', (e) => session.playback.finished(e.itemId));
  session.on('turn_done', (e) => {
    if (e.status === 'cancelled') bargeIns++;
    if (!e.transcript) return;
    answers.push(e.transcript);
    printer.say(
      'Teller',
      `🔊 "${e.transcript}"${e.outcome === 'partial' ? ' (cut off: what the caller heard)' : ''}`,
    );
  });
  sim?.respondWith(...GEMINI_SIMULATOR_TURNS);

  await step('connect', session.connect());
  printer.say(
    'Session',
    `connected (${session.model.provider}, ${session.model.capabilities.sessionResumption ? 'resumable' : 'not resumable'})`,
  );

  // 1. A question answered through a tool call: the model continues by itself after the tool's output.
  const answered = (count: number) => nextEvent(session, 'turn_done', (e) => isAnswer(e), count);
  const first = answered(1);
  ask(session, sim, printer, GEMINI_QUESTIONS.balance);
  await step('the answer to the first question', first);

  // 2. A long answer the caller speaks over: the service interrupts it, the session stops playback.
  const cut = nextEvent(session, 'turn_done', (e) => e.status === 'cancelled');
  const heardMs = sim ? STORY_HOLD_MS : SERVICE_HEARD_MS;
  const heardEnough = heard(session, heardMs);
  ask(session, sim, printer, GEMINI_QUESTIONS.story);
  const itemId = await step('the caller to hear part of the long answer', heardEnough);
  session.playback.played(itemId, heardMs);
  const afterBargeIn = answered(1);
  ask(session, sim, printer, GEMINI_QUESTIONS.interruption, { bargeIn: true });
  const cancelled = await step('the long answer to stop', cut);
  printer.say('Session', `barge-in: response ${cancelled.status} (${cancelled.reason ?? 'no reason'})`);
  await step('the answer after the barge-in', afterBargeIn);

  // 3. The service says goAway: the session recycles between turns and resumes with the latest handle.
  let recycled: RealtimeSessionEventOf<'reconnected'> | undefined;
  let serviceTurnsAfterRecycle: number | undefined;
  if (sim) {
    const next = sim.nextSession();
    const reconnected = nextEvent(session, 'reconnected');
    sim.latest?.goAway(GO_AWAY_MS);
    printer.say('Gemini', `goAway (the connection ends in ${GO_AWAY_MS} ms)`);
    recycled = await step('the recycle', reconnected);
    serviceTurnsAfterRecycle = (await step('the resumed session', next)).history.length;
    printer.say(
      'Session',
      `recycled: ${recycled.resumed ? 'resumed the service session' : 'new service session'}, ${recycled.replayedItems} item(s) replayed; the service holds ${serviceTurnsAfterRecycle} turns`,
    );
  } else {
    printer.say(
      'Session',
      '(a recycle happens when the service sends goAway, about every 10 minutes; not in this short call)',
    );
  }

  // 4. The kept context answers.
  const last = answered(1);
  ask(session, sim, printer, GEMINI_QUESTIONS.afterRecycle);
  await step('the answer after the recycle', last);

  const summary: GeminiDemoSummary = {
    toolCalls,
    bargeIns,
    recycled: recycled !== undefined,
    resumed: recycled?.resumed === true,
    replayedItems: recycled?.replayedItems ?? 0,
    serviceTurnsAfterRecycle,
    answers,
  };
  printer.summary(
    `${toolCalls} tool call(s), ${bargeIns} barge-in(s), ${summary.recycled ? `1 recycle (${summary.resumed ? 'resumed' : 'not resumed'}, ${summary.replayedItems} replayed)` : 'no recycle'}, ${answers.length} spoken answers.`,
  );
  return summary;
}

/** A completed turn that says something (not one that only calls tools). */
function isAnswer(done: TurnDone): boolean {
  return done.status === 'completed' && done.toolCalls.length === 0 && done.transcript !== '';
}

/**
 * The caller asks: on the simulator as speech (push-to-talk: the audio, then the commit; the simulator hears the
 * question); on a real service typed, or (a barge-in) by stopping the answer and typing.
 */
function ask(
  session: RealtimeSession,
  sim: GeminiSimulator | undefined,
  printer: TranscriptPrinter,
  question: string,
  options: { bargeIn?: boolean } = {},
): void {
  if (sim) {
    sim.hear(question);
    const speech = speechAudio(question);
    printer.say(
      'Caller',
      `🎙 "${question}" (${speech.byteLength / PCM16_BYTES_PER_MS} ms of speech${options.bargeIn ? ', over the answer' : ''})`,
    );
    session.sendAudio(speech, { commit: true });
    return;
  }
  printer.say('Caller', `⌨ "${question}" (typed${options.bargeIn ? ', over the answer' : ''})`);
  if (options.bargeIn) session.interrupt();
  session.sendMessage(question);
}

/** Resolves with the message's id once `ms` of the next response's audio arrived. */
function heard(session: RealtimeSession, ms: number): Promise<string> {
  let bytes = 0;
  let responseId: string | undefined;
  return new Promise((resolve) => {
    const off = session.on('audio', (e) => {
      responseId ??= e.responseId;
      if (e.responseId !== responseId) return;
      bytes += e.data.byteLength;
      if (bytes < ms * PCM16_BYTES_PER_MS) return;
      off();
      resolve(e.itemId);
    });
  });
}
