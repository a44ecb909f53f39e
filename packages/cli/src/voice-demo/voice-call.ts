import {
  type Clock,
  ParleyError,
  PCM16_BYTES_PER_MS,
  type RealtimeHistoryItem,
  type RealtimeMessageHistoryItem,
  type RealtimeSession,
} from '@parley/core';
import { type Hold, type RealtimeSimulator, speechAudio } from '@parley/openai/testing';
import type { TranscriptPrinter } from '../transcript-printer.js';
import { AudioMeter } from './audio-meter.js';
import { CallRecording } from './call-recording.js';
import { nextEvent } from './next-event.js';
import { guarded } from './step-guard.js';
import { CODE_WORDS, HEARD_MS, ONE_TIME_CODE_INSTRUCTIONS, QUESTIONS } from './voice-script.js';

/** A summary of what the voice demo did, for callers and tests. */
export interface VoiceDemoSummary {
  /** Tool calls that ran (handoffs not counted). */
  toolCalls: number;
  /** The most tool calls one response made. */
  parallelToolCalls: number;
  /** `response.create` requests the session sent for the parallel calls' follow-up. */
  followUpRequests: number;
  /** Handoffs, as `from → to`. */
  handoffs: string[];
  /** Assistant replies that carried audio (the ephemeral one included). */
  spokenReplies: number;
  /** Milliseconds of assistant audio the session delivered. */
  audioMs: number;
  /** How much of the interrupted answer the caller heard (as reported to the playback tracker). */
  heardMs: number;
  /** Where the session truncated the interrupted message on the provider (`audio_end_ms`). */
  truncatedAtMs: number;
  /** The out-of-band reply's transcript. */
  ephemeralTranscript: string;
  /** `session.history.length` before the ephemeral reply. */
  historyBefore: number;
  /** `session.history.length` after it. */
  historyAfter: number;
  /** The agent's audio as the caller heard it: PCM16 24 kHz mono. */
  heardAudio: Uint8Array;
}

/** What {@link runVoiceCall} drives. */
export interface VoiceCall {
  session: RealtimeSession;
  sim: RealtimeSimulator;
  printer: TranscriptPrinter;
  /** The hold inside Cards' answer, where the caller barges in. */
  midAnswer: Hold;
  clock: Clock;
  stepTimeoutMs: number;
}

interface ToolRun {
  callId: string;
  name: string;
  arguments: string;
  responseId: string | undefined;
  output?: string;
}

/**
 * The scripted call, step by step. Every printed value comes from the session, the wire or the script, never
 * from timing: each step waits for the events it reports.
 */
export async function runVoiceCall(call: VoiceCall): Promise<VoiceDemoSummary> {
  const { session, sim, printer } = call;
  const step = <T>(name: string, promise: Promise<T>) =>
    guarded(call.clock, call.stepTimeoutMs, name, promise);
  const meter = new AudioMeter();
  const recording = new CallRecording();
  const transcripts = new Map<string, string>();
  const toolRuns: ToolRun[] = [];
  const handoffs: string[] = [];
  let responseCreates = 0;
  session.on('audio', (e) => {
    meter.add(e.responseId, e.itemId, e.data.byteLength);
    recording.add(e.itemId, e.data);
  });
  session.on('transcript_delta', (e) =>
    transcripts.set(e.responseId, (transcripts.get(e.responseId) ?? '') + e.delta),
  );
  session.on('tool_start', (e) => {
    toolRuns.push({ callId: e.callId, name: e.name, arguments: e.arguments, responseId: e.responseId });
    printer.say(e.agent.name, `⚙ ${e.name}(${e.arguments})`);
  });
  session.on('tool_end', (e) => {
    const run = toolRuns.find((t) => t.callId === e.callId);
    if (run) run.output = e.output;
  });
  /** Prints the results of the calls not printed yet, in call order (calls finish in any order). */
  let printedResults = 0;
  const printResults = () => {
    for (const run of toolRuns.slice(printedResults))
      printer.toolResult(run.name, run.output ?? '(no output)');
    printedResults = toolRuns.length;
  };
  session.on('handoff', (e) => {
    handoffs.push(`${e.from.name} → ${e.to.name}`);
    printer.say(
      e.from.name,
      `⇢ hands the call to ${e.to.name} (${e.via === 'tool_call' ? 'handoff tool call' : 'updateAgent'})`,
    );
  });
  const stopCounting = sim.onClientEvent(({ event }) => {
    if ((event as { type?: string }).type === 'response.create') responseCreates++;
  });

  /** Says `question` out loud, waits for its transcription, and for the `responses`-th response after it. */
  const ask = async (question: string, responses: number) => {
    const transcribed = historyChange(
      session,
      (item) => item.role === 'user' && item.hasAudio && item.text !== '',
    );
    const answered = nextEvent(session, 'response_done', (e) => e.conversation === 'default', responses);
    const pcm = speechAudio(question);
    session.sendAudio(pcm, { commit: true });
    printer.say('caller', `🎙 ${pcm.byteLength / PCM16_BYTES_PER_MS} ms of speech, committed`);
    printer.more(`↳ transcribed: "${(await step('the transcription', transcribed)).text}"`);
    return { answered };
  };
  /** Prints the spoken answer of `responseId`, heard in full. */
  const heardInFull = (responseId: string) => {
    const message = assistantMessage(session.history, responseId);
    session.playback.finished(message.itemId);
    printer.say(
      message.agentName ?? session.currentAgent.name,
      `🔊 "${message.text}" (${meter.responseMs(responseId)} ms of audio, heard in full)`,
    );
  };

  try {
    await step('connect', session.connect());
    const server = await step('the simulator sees the connection', sim.waitForConnection());
    printer.say(
      'session',
      `connected: OpenAIRealtimeModel → ${new URL(sim.url).host} (the simulator), agent ${session.currentAgent.name}`,
    );

    // 1. A spoken question, one tool call, a spoken answer.
    const balance = await step('the balance answer', (await ask(QUESTIONS.balance, 2)).answered);
    printResults();
    heardInFull(balance.responseId);

    // 2. Two tool calls in one response, run in parallel, answered by ONE follow-up response.
    const firstCall = nextEvent(session, 'tool_start').then(() => responseCreates);
    const both = await step(
      'the answer to both questions',
      (await ask(QUESTIONS.savingsAndLimit, 2)).answered,
    );
    const createsBefore = await firstCall;
    printResults();
    const parallel = Math.max(...countBy(toolRuns.map((t) => t.responseId ?? t.callId)));
    const followUpRequests = responseCreates - createsBefore;
    printer.say(
      'session',
      `⇉ ${parallel} parallel tool calls in one response; ${followUpRequests} follow-up response answers both`,
    );
    heardInFull(both.responseId);

    // 3. A handoff; the new agent answers, and the caller barges in mid-answer.
    const cardsStarted = nextEvent(
      session,
      'response_started',
      (e) => e.conversation === 'default' && e.agent.name !== 'Teller',
    );
    const handedOff = nextEvent(session, 'handoff');
    await ask(QUESTIONS.lostCard, 1);
    await step('the handoff', handedOff);
    const { responseId } = await step("the new agent's answer", cardsStarted);
    await step('the middle of the answer', call.midAnswer.reached);
    const cardsItem = server.conversation.lastId ?? '';
    await step(
      'the audio sent so far',
      meter.reached(cardsItem, server.conversation.audioBytes(cardsItem).byteLength),
    );
    printer.say(
      session.currentAgent.name,
      `🔊 "${(transcripts.get(responseId) ?? '').trimEnd()}…" (${meter.responseMs(responseId)} ms of audio so far, still talking)`,
    );
    const interrupted = nextEvent(session, 'audio_interrupted', (e) => e.responseId === responseId);
    const cancelled = nextEvent(session, 'response_done', (e) => e.responseId === responseId);
    const cut = historyChange(session, (item) => item.itemId === cardsItem && item.interrupted);
    const truncate = server.waitForClientEvent('conversation.item.truncate');
    session.playback.played(cardsItem, HEARD_MS);
    recording.cut(cardsItem, HEARD_MS);
    printer.say('caller', `✋ barges in after hearing ${HEARD_MS} ms: session.interrupt()`);
    session.interrupt();
    await step('audio_interrupted', interrupted);
    printer.say('session', '⏹ audio_interrupted: stop local playback now');
    const { status } = await step('the cancelled response', cancelled);
    printer.more(`↳ response_done: ${status}`);
    const truncatedAtMs = Number((await step('the truncation', truncate)).audio_end_ms);
    printer.say(
      'session',
      `✂ conversation.item.truncate at ${truncatedAtMs} ms: the model keeps only what was heard`,
    );
    printer.more(
      `↳ history keeps the message as interrupted: "${(await step('the cut message', cut)).text}"`,
    );

    // 4. An ephemeral reply reads a one-time code that never enters the history or the model's context.
    const historyBefore = session.history.length;
    printer.say('history', `${historyBefore} items before the one-time code`);
    const code = session.generateReply({ instructions: ONE_TIME_CODE_INSTRUCTIONS, addToHistory: false });
    const codeResponseId = await step('the ephemeral reply', code);
    await step('the end of the ephemeral reply', code.done);
    const ephemeralTranscript = transcripts.get(codeResponseId) ?? '';
    printer.say(
      session.currentAgent.name,
      `🔒 out of band: "${ephemeralTranscript}" (${meter.responseMs(codeResponseId)} ms of audio)`,
    );
    const historyAfter = session.history.length;
    const inHistory = session.history.some(
      (item) => item.type === 'message' && item.text.includes(CODE_WORDS),
    );
    const inContext = server.conversation.items.some((item) =>
      server.conversation.textOf(item).includes(CODE_WORDS),
    );
    printer.say(
      'history',
      `${historyAfter} items after; the code is ${inHistory ? 'IN' : 'not in'} the history and ` +
        `${inContext ? 'IN' : 'not in'} the model's context (${server.conversation.items.length} items)`,
    );

    return {
      toolCalls: toolRuns.length,
      parallelToolCalls: parallel,
      followUpRequests,
      handoffs,
      spokenReplies: meter.spokenResponses(),
      audioMs: meter.totalMs(),
      heardMs: HEARD_MS,
      truncatedAtMs,
      ephemeralTranscript,
      historyBefore,
      historyAfter,
      heardAudio: recording.pcm(),
    };
  } finally {
    stopCounting();
  }
}

/** How often each value occurs, in first-seen order. */
function countBy(values: readonly string[]): number[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.values()];
}

/** The first `history_added` / `history_updated` snapshot of a message matching `match`, from now on. */
function historyChange(
  session: RealtimeSession,
  match: (item: RealtimeMessageHistoryItem) => boolean,
): Promise<RealtimeMessageHistoryItem> {
  const isMatch = (item: RealtimeHistoryItem): item is RealtimeMessageHistoryItem =>
    item.type === 'message' && match(item);
  return new Promise((resolve) => {
    const offs = (['history_added', 'history_updated'] as const).map((type) =>
      session.on(type, ({ item }) => {
        if (!isMatch(item)) return;
        for (const off of offs) off();
        resolve(item);
      }),
    );
  });
}

function assistantMessage(
  history: readonly RealtimeHistoryItem[],
  responseId: string,
): RealtimeMessageHistoryItem {
  const found = history.find(
    (item): item is RealtimeMessageHistoryItem =>
      item.type === 'message' && item.role === 'assistant' && item.responseId === responseId,
  );
  if (!found)
    throw new ParleyError(
      'voice_demo_no_answer',
      `The simulator's response ${responseId} had no assistant message.`,
    );
  return found;
}
