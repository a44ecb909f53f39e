import {
  type Clock,
  ParleyError,
  type RealtimeHistoryItem,
  type RealtimeMessageHistoryItem,
  type RealtimeSession,
  type RealtimeSessionEventOf,
} from '@parley/core';
import type { TranscriptPrinter } from '../transcript-printer.js';
import { AudioMeter } from './audio-meter.js';
import type { CallBackend } from './call-backend.js';
import { CallRecording } from './call-recording.js';
import { historyChange } from './history-change.js';
import { nextEvent } from './next-event.js';
import { guarded } from './step-guard.js';
import { TurnResponses } from './turn-responses.js';
import { CODE_WORDS, HEARD_MS, ONE_TIME_CODE_INSTRUCTIONS, QUESTIONS } from './voice-script.js';

/** A summary of what the voice demo did, for callers and tests. */
export interface VoiceDemoSummary {
  /** Tool calls that ran (handoffs not counted). */
  toolCalls: number;
  /** The most tool calls one response made. */
  parallelToolCalls: number;
  /** Responses that answered the parallel calls (one, when the session coalesces their outputs). */
  followUpRequests: number;
  /** Handoffs, as `from → to`. */
  handoffs: string[];
  /** Assistant responses that carried audio (the ephemeral one included). */
  spokenResponses: number;
  /** Milliseconds of assistant audio the session delivered. */
  audioMs: number;
  /** How much of the interrupted answer the caller heard (as reported to the playback tracker); 0 without barge-in. */
  heardMs: number;
  /** Where the session truncated the interrupted message on the provider (`audio_end_ms`), when observable. */
  truncatedAtMs: number | undefined;
  /** The out-of-band response's transcript. */
  ephemeralTranscript: string;
  /** `session.history.length` before the ephemeral response. */
  historyBefore: number;
  /** `session.history.length` after it. */
  historyAfter: number;
  /** The agent's audio as the caller heard it, in the session's output format (PCM16 24 kHz mono by default). */
  heardAudio: Uint8Array;
}

/** What {@link runVoiceCall} drives. */
export interface VoiceCall {
  session: RealtimeSession;
  backend: CallBackend;
  printer: TranscriptPrinter;
  clock: Clock;
  stepTimeoutMs: number;
  /** Bytes per millisecond of the session's output audio format. Default 48 (PCM16 24 kHz). */
  bytesPerMs?: number;
}

interface ToolRun {
  callId: string;
  name: string;
  arguments: string;
  responseId: string | undefined;
  output?: string;
}

type ResponseDone = RealtimeSessionEventOf<'response_done'>;

/**
 * The call, step by step, on any provider. Every printed value comes from the session, the wire or the script,
 * never from timing: each step waits for the events it reports.
 */
export async function runVoiceCall(call: VoiceCall): Promise<VoiceDemoSummary> {
  const { session, backend, printer } = call;
  const step = <T>(name: string, promise: Promise<T>) =>
    guarded(call.clock, call.stepTimeoutMs, name, promise);
  const meter = new AudioMeter(call.bytesPerMs);
  const recording = new CallRecording(call.bytesPerMs);
  const transcripts = new Map<string, string>();
  const toolRuns: ToolRun[] = [];
  const handoffs: string[] = [];
  const turns = new TurnResponses(session);
  session.on('audio', (e) => {
    meter.add(e.responseId, e.itemId, e.data.byteLength);
    recording.add(e.itemId, e.data);
  });
  session.on('transcript_delta', (e) =>
    transcripts.set(e.responseId, (transcripts.get(e.responseId) ?? '') + e.delta),
  );
  session.on('tool_started', (e) => {
    toolRuns.push({ callId: e.callId, name: e.name, arguments: e.arguments, responseId: e.responseId });
    printer.say(e.agent.name, `⚙ ${e.name}(${e.arguments})`);
  });
  session.on('tool_done', (e) => {
    const run = toolRuns.find((t) => t.callId === e.callId);
    if (run) run.output = e.output;
  });
  session.on('handoff', (e) => {
    handoffs.push(`${e.from.name} → ${e.to.name}`);
    printer.say(
      e.from.name,
      `⇢ hands the call to ${e.to.name} (${e.via === 'tool_call' ? 'handoff tool call' : 'updateAgent'})`,
    );
  });
  session.on('warning', (e) => printer.say('session', `⚠ ${e.code}: ${e.message}`));
  session.on('error', (e) => printer.say('session', `⚠ ${e.source} error ${e.code}: ${e.message}`));
  /** Prints the results of the calls not printed yet, in call order (calls finish in any order). */
  let printedResults = 0;
  const printResults = () => {
    for (const run of toolRuns.slice(printedResults))
      printer.toolResult(run.name, run.output ?? '(no output)');
    printedResults = toolRuns.length;
  };
  /** Asks `question`; prints what the provider heard when it was spoken. */
  const ask = async (question: string) => {
    const transcribed = historyChange(
      session,
      (item) => item.role === 'user' && item.hasAudio && item.text !== '',
    );
    const { description, spoken } = backend.ask(session, question);
    printer.say('caller', description);
    if (spoken) printer.more(`↳ transcribed: "${(await step('the transcription', transcribed)).text}"`);
  };
  /** The responses of one turn, up to the answer. */
  const answer = (name: string) => turns.untilAnswer((response) => step(name, response));
  /** Prints the spoken answer of `responseId`, heard in full. */
  const heardInFull = (responseId: string) => {
    const message = assistantMessage(session.history, responseId);
    session.playback.finished(message.itemId);
    printer.say(
      message.agentName ?? session.currentAgent.name,
      `🔊 "${message.text}" (${meter.responseMs(responseId)} ms of audio, heard in full)`,
    );
  };

  await step('connect', session.connect());
  await step('the provider sees the connection', backend.connected());
  printer.say('session', `connected: ${backend.label}, agent ${session.currentAgent.name}`);

  // 1. A question, one tool call, a spoken answer.
  await ask(QUESTIONS.balance);
  const balance = await answer('the balance answer');
  printResults();
  heardInFull((balance.at(-1) as ResponseDone).responseId);

  // 2. Two tool calls in one response, run in parallel, answered by ONE follow-up response.
  const toolsBefore = toolRuns.length;
  await ask(QUESTIONS.savingsAndLimit);
  const both = await answer('the answer to both questions');
  printResults();
  const parallel = Math.max(0, ...countBy(toolRuns.slice(toolsBefore).map((t) => t.responseId ?? t.callId)));
  const followUpRequests = both.length - 1;
  printer.say(
    'session',
    `⇉ ${parallel} parallel tool calls in one response; ${followUpRequests} follow-up response answers both`,
  );
  heardInFull((both.at(-1) as ResponseDone).responseId);

  // 3. A handoff; the new agent answers, and the caller barges in mid-answer.
  const firstAgent = session.currentAgent.name;
  const newAgentStarted = nextEvent(
    session,
    'response_started',
    (e) => !e.ephemeral && e.agent.name !== firstAgent,
  );
  const handedOff = nextEvent(session, 'handoff');
  await ask(QUESTIONS.lostCard);
  await step('the handoff', handedOff);
  const { responseId } = await step("the new agent's answer", newAgentStarted);
  const answerDone = nextEvent(session, 'response_done', (e) => e.responseId === responseId);
  const itemId = await step('the middle of the answer', backend.midAnswer(responseId, meter, answerDone));
  let truncatedAtMs: number | undefined;
  let heardMs = 0;
  if (itemId === undefined) {
    printer.say(
      session.currentAgent.name,
      `🔊 "${transcripts.get(responseId) ?? ''}" (ended before the caller barged in)`,
    );
  } else {
    printer.say(
      session.currentAgent.name,
      `🔊 "${(transcripts.get(responseId) ?? '').trimEnd()}…" (${meter.responseMs(responseId)} ms of audio so far, still talking)`,
    );
    const interrupted = nextEvent(session, 'audio_interrupted', (e) => e.responseId === responseId);
    const cut = historyChange(session, (item) => item.itemId === itemId && item.interrupted);
    const truncate = backend.truncation();
    heardMs = HEARD_MS;
    session.playback.played(itemId, heardMs);
    recording.cut(itemId, heardMs);
    printer.say('caller', `✋ barges in after hearing ${heardMs} ms: session.interrupt()`);
    session.interrupt();
    await step('audio_interrupted', interrupted);
    printer.say('session', '⏹ audio_interrupted: stop local playback now');
    const { status } = await step('the cancelled response', answerDone);
    printer.more(`↳ response_done: ${status}`);
    truncatedAtMs = await step('the truncation', truncate);
    printer.say(
      'session',
      truncatedAtMs === undefined
        ? `✂ truncated where the caller stopped listening (${heardMs} ms heard, from session.playback)`
        : `✂ conversation.item.truncate at ${truncatedAtMs} ms: the model keeps only what was heard`,
    );
    printer.more(
      `↳ history keeps the message as interrupted: "${(await step('the cut message', cut)).text}"`,
    );
  }
  // Responses of the turns above are all accounted for; the ephemeral response is outside the conversation.
  turns.clear();

  // 4. An ephemeral response reads a one-time code that never enters the history or the model's context.
  const historyBefore = session.history.length;
  printer.say('history', `${historyBefore} items before the one-time code`);
  const code = session.generateResponse({ instructions: ONE_TIME_CODE_INSTRUCTIONS, addToHistory: false });
  const codeResponseId = await step('the ephemeral response', code);
  await step('the end of the ephemeral response', code.done);
  const ephemeralTranscript = transcripts.get(codeResponseId) ?? '';
  const historyAfter = session.history.length;
  const inHistory = session.history.some((item) => item.type === 'message' && item.text.includes(CODE_WORDS));
  printer.say(
    session.currentAgent.name,
    `${inHistory ? '🔓 as an ordinary response' : '🔒 out of band'}: "${ephemeralTranscript}" (${meter.responseMs(codeResponseId)} ms of audio)`,
  );
  const inContext = backend.inModelContext(CODE_WORDS);
  printer.say(
    'history',
    `${historyAfter} items after; the code is ${inHistory ? 'IN' : 'not in'} the history` +
      (inContext === undefined ? '' : ` and ${inContext ? 'IN' : 'not in'} the model's context`),
  );

  return {
    toolCalls: toolRuns.length,
    parallelToolCalls: parallel,
    followUpRequests,
    handoffs,
    spokenResponses: meter.spokenResponses(),
    audioMs: meter.totalMs(),
    heardMs,
    truncatedAtMs,
    ephemeralTranscript,
    historyBefore,
    historyAfter,
    heardAudio: recording.pcm(),
  };
}

/** How often each value occurs, in first-seen order. */
function countBy(values: readonly string[]): number[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.values()];
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
      `The provider's response ${responseId} had no assistant message.`,
    );
  return found;
}
