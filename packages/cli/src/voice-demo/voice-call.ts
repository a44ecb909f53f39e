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
import { nextEvent } from './next-event.js';
import { guarded } from './step-guard.js';
import {
  CODE_WORDS,
  HEARD_MS,
  ONE_TIME_CODE_INSTRUCTIONS,
  SPOKEN_QUESTION,
  TYPED_QUESTION,
} from './voice-script.js';

/** A summary of what the voice demo did, for callers and tests. */
export interface VoiceDemoSummary {
  /** Tool calls that ran. */
  toolCalls: number;
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
}

/** What {@link runVoiceCall} drives. */
export interface VoiceCall {
  session: RealtimeSession;
  sim: RealtimeSimulator;
  printer: TranscriptPrinter;
  /** The hold inside the payments answer, where the caller barges in. */
  midAnswer: Hold;
  clock: Clock;
  stepTimeoutMs: number;
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
  const transcripts = new Map<string, string>();
  const tools: { name: string; arguments: string; output?: string }[] = [];
  session.on('audio', (e) => meter.add(e.responseId, e.itemId, e.data.byteLength));
  session.on('transcript_delta', (e) =>
    transcripts.set(e.responseId, (transcripts.get(e.responseId) ?? '') + e.delta),
  );
  session.on('tool_start', (e) => tools.push({ name: e.name, arguments: e.arguments }));
  session.on('tool_end', (e) => {
    const started = tools.find((t) => t.output === undefined && t.name === e.name);
    if (started) started.output = e.output;
  });

  await step('connect', session.connect());
  const server = await step('the simulator sees the connection', sim.waitForConnection());
  printer.say(
    'session',
    `connected: OpenAIRealtimeModel → ws://127.0.0.1 (the simulator), agent ${session.currentAgent.name}`,
  );

  // 1. The caller asks out loud; the agent calls get_balance and answers in audio.
  const transcribed = historyChange(
    session,
    (item) => item.role === 'user' && item.hasAudio && item.text !== '',
  );
  const balanceAnswer = nextEvent(session, 'response_done', (e) => e.conversation === 'default', 2);
  const pcm = speechAudio(SPOKEN_QUESTION);
  session.sendAudio(pcm, { commit: true });
  printer.say('caller', `🎙 (${pcm.byteLength / PCM16_BYTES_PER_MS} ms of speech, committed)`);
  printer.more(`↳ transcribed: "${(await step('the transcription', transcribed)).text}"`);
  const balanceDone = await step('the balance answer', balanceAnswer);
  for (const t of tools) {
    printer.say(session.currentAgent.name, `⚙ ${t.name}(${t.arguments})`);
    printer.toolResult(t.name, t.output ?? '(no output)');
  }
  const balanceMessage = assistantMessage(session.history, balanceDone.responseId);
  session.playback.finished(balanceMessage.itemId); // the caller heard all of it
  printer.say(
    balanceMessage.agentName ?? '',
    `🔊 "${balanceMessage.text}" (${meter.responseMs(balanceDone.responseId)} ms of audio, heard in full)`,
  );

  // 2. The caller asks for more and barges in mid-answer.
  const paymentsStarted = nextEvent(session, 'response_started', (e) => e.conversation === 'default');
  session.sendMessage(TYPED_QUESTION);
  printer.say('caller', `⌨ "${TYPED_QUESTION}"`);
  const { responseId } = await step('the payments answer', paymentsStarted);
  await step('the middle of the payments answer', call.midAnswer.reached);
  const paymentsItem = server.conversation.lastId ?? '';
  await step(
    'the audio sent so far',
    meter.reached(paymentsItem, server.conversation.audioBytes(paymentsItem).byteLength),
  );
  printer.say(
    session.currentAgent.name,
    `🔊 "${(transcripts.get(responseId) ?? '').trimEnd()}…" (${meter.responseMs(responseId)} ms of audio so far, still talking)`,
  );

  const interrupted = nextEvent(session, 'audio_interrupted', (e) => e.responseId === responseId);
  const cancelled = nextEvent(session, 'response_done', (e) => e.responseId === responseId);
  const cut = historyChange(session, (item) => item.itemId === paymentsItem && item.interrupted);
  const truncate = server.waitForClientEvent('conversation.item.truncate');
  session.playback.played(paymentsItem, HEARD_MS);
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
  printer.more(`↳ history keeps the message as interrupted: "${(await step('the cut message', cut)).text}"`);

  // 3. An ephemeral reply reads a one-time code that never enters the history or the model's context.
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
  const inHistory = session.history.some((item) => item.type === 'message' && item.text.includes(CODE_WORDS));
  const inContext = server.conversation.items.some((item) =>
    server.conversation.textOf(item).includes(CODE_WORDS),
  );
  printer.say(
    'history',
    `${historyAfter} items after; the code is ${inHistory ? 'IN' : 'not in'} the history and ` +
      `${inContext ? 'IN' : 'not in'} the model's context (${server.conversation.items.length} items)`,
  );

  return {
    toolCalls: tools.length,
    spokenReplies: meter.spokenResponses(),
    audioMs: meter.totalMs(),
    heardMs: HEARD_MS,
    truncatedAtMs,
    ephemeralTranscript,
    historyBefore,
    historyAfter,
  };
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
