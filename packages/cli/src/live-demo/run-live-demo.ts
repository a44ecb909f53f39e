import { writeFile } from 'node:fs/promises';
import {
  type Clock,
  PCM16_SAMPLE_RATE,
  type RealtimeHistoryItem,
  type RealtimeMessageHistoryItem,
  RealtimeSession,
  systemClock,
} from '@parley/core';
import { OpenAILiveModel } from '@parley/openai';
import { speechAudio, startLiveSimulator } from '@parley/simulator';
import { encodeWav } from '../audio/wav.js';
import type { Output } from '../output.js';
import { TranscriptPrinter } from '../transcript-printer.js';
import { historyChange } from '../voice-demo/history-change.js';
import { nextEvent } from '../voice-demo/next-event.js';
import { guarded } from '../voice-demo/step-guard.js';
import { type BankToolCall, bankAgent, LIVE_QUESTIONS, voiceAgent } from './live-script.js';
import { Microphone } from './microphone.js';

/** Options of {@link runLiveDemo}. */
export interface LiveDemoOptions {
  /** Where the voice's continuous output track (speech and the silence between) is written as a WAV file. */
  wavPath?: string;
  /** The clock of the demo's stall guard. Default: the system clock. */
  clock?: Clock;
  /** How long one step of the call may take before the demo gives up. Default 10 000 ms. */
  stepTimeoutMs?: number;
}

/** What the GPT-Live demo did, for callers and tests. */
export interface LiveDemoSummary {
  /** Delegations the voice model made. */
  delegations: number;
  /** The backend's tool calls that ran, in order. */
  toolCalls: BankToolCall[];
  /** Delegated calls the app approved. */
  approvals: number;
  /** What the voice said, one entry per spoken response. */
  spoken: string[];
  /** The voice's output track: speech and silence, PCM16 24 kHz. */
  heardAudio: Uint8Array;
}

const SIMULATOR_KEY = 'sk-live-simulator-demo';

/**
 * The GPT-Live call: a voice agent on `OpenAILiveModel` against the embedded GPT-Live simulator (127.0.0.1, a real
 * WebSocket), with a Parley text agent as its delegated backend. The caller asks for a balance (a delegation, a tool
 * call, the answer spoken) and to block a card (a delegation whose tool call waits for the app's approval while the
 * voice goes on). Prints a timeline; the session and the simulator are closed on every path.
 */
export async function runLiveDemo(output: Output, options: LiveDemoOptions = {}): Promise<LiveDemoSummary> {
  const printer = new TranscriptPrinter(output);
  const clock = options.clock ?? systemClock;
  const step = <T>(name: string, promise: Promise<T>) =>
    guarded(clock, options.stepTimeoutMs ?? 10_000, name, promise);
  // Every utterance is delegated: GPT-Live's voice model never calls tools itself.
  const sim = await startLiveSimulator({ brain: () => ({ type: 'delegate' }) });
  try {
    const toolCalls: BankToolCall[] = [];
    const bank = bankAgent((call) => {
      toolCalls.push(call);
      printer.say('Bank', `⚙ ${call.name}(${call.arguments})`);
      printer.toolResult(call.name, call.output);
    });
    const session = new RealtimeSession(voiceAgent, {
      model: new OpenAILiveModel({ apiKey: SIMULATOR_KEY, url: sim.url }),
      delegate: bank,
      reconnect: false,
    });
    const track: Uint8Array[] = [];
    const audioMs = new Map<string, number>();
    session.on('audio', (e) => {
      track.push(e.data);
      audioMs.set(e.responseId, (audioMs.get(e.responseId) ?? 0) + e.data.byteLength / 48);
    });
    session.on('output_silence', (e) => track.push(new Uint8Array(e.durationMs * 48)));
    session.on('error', (e) => printer.say('session', `⚠ ${e.source} error ${e.code}: ${e.message}`));
    const spoken: string[] = [];
    // An item is updated in place after it completes (its heard position, for one): one line per item.
    const spokenItems = new Set<string>();
    session.on('history_updated', ({ item }) => {
      if (!isCompleted(item, 'assistant') || spokenItems.has(item.itemId)) return;
      spokenItems.add(item.itemId);
      spoken.push(item.text);
      const ms = audioMs.get(item.responseId ?? '') ?? 0;
      printer.say('Voice', `🔊 "${item.text.trim()}" (${Math.round(ms)} ms of audio)`);
    });
    const mic = new Microphone(session);
    let delegations = 0;
    let approvals = 0;

    /** The caller says `question`; the voice delegates; resolves with the backend's answer once it was spoken. */
    const ask = async (question: string, approve = false) => {
      const transcribed = historyChange(session, (item) => isCompleted(item, 'user'));
      const requested = nextEvent(session, 'delegation_requested');
      const approval = approve ? nextEvent(session, 'delegation_approval_requested') : undefined;
      const done = nextEvent(session, 'delegation_done');
      const appended = nextEvent(session, 'context_appended');
      printer.say('caller', `🎙 ${mic.say(speechAudio(question))} ms of speech`);
      printer.more(`↳ transcribed: "${(await step('the transcription', transcribed)).text}"`);
      const { delegationId, offsetMs } = await step('the delegation', requested);
      delegations += 1;
      printer.say(
        'Voice',
        `⇢ delegates (${delegationId} at ${offsetMs} ms of the timeline; no task text: the session asks Bank with the conversation so far)`,
      );
      if (approval) {
        const spokenBefore = spoken.length;
        const { callId, name, arguments: args } = await step('the approval request', approval);
        printer.say('Bank', `⏸ ${name}(${args}) needs approval: only this delegation waits`);
        const acknowledged = historyChange(session, (item) => isCompleted(item, 'assistant'));
        if (spoken.length === spokenBefore) await step("the voice's acknowledgement", acknowledged);
        printer.say('app', `✔ session.approve('${callId}')`);
        approvals += 1;
        session.approve(callId);
      }
      const answer = await step("the backend's answer", done);
      printer.say('Bank', `✓ "${answer.output}" → sent to the voice as commentary`);
      const said = historyChange(
        session,
        (item) => isCompleted(item, 'assistant') && item.text.includes(answer.output),
      );
      const ack = await step('the acknowledgement of the commentary', appended);
      printer.say('session', `⤷ context_appended: ${ack.kind} reached the model at ${ack.startMs} ms`);
      await step('the spoken answer', said);
    };

    try {
      printer.title(
        'Parley live demo: a GPT-Live voice agent with a Parley agent as its delegated backend, on the embedded GPT-Live simulator (no API key, no network)',
      );
      await step('connect', session.connect());
      printer.say(
        'session',
        `connected: OpenAILiveModel → ${new URL(sim.url).host} (the GPT-Live simulator), voice agent Voice, delegate Bank`,
      );
      mic.start();
      await ask(LIVE_QUESTIONS.balance);
      await ask(LIVE_QUESTIONS.blockCard, true);
      mic.stop();
      const heardAudio = Buffer.concat(track);
      if (options.wavPath !== undefined)
        await writeFile(options.wavPath, encodeWav(heardAudio, PCM16_SAMPLE_RATE));
      printer.summary(
        `${delegations} delegations answered by Bank (${toolCalls.length} tool calls, ${approvals} approved by the app), ` +
          `${spoken.length} spoken responses; ${heardAudio.byteLength / 48} ms of continuous output audio.`,
      );
      if (options.wavPath !== undefined)
        output.line(`The voice's output track (speech and silence): ${options.wavPath}`);
      return { delegations, toolCalls, approvals, spoken, heardAudio };
    } finally {
      mic.stop();
      await session.close();
    }
  } finally {
    await sim.close();
  }
}

function isCompleted(
  item: RealtimeHistoryItem,
  role: 'user' | 'assistant',
): item is RealtimeMessageHistoryItem {
  return item.type === 'message' && item.role === role && item.status === 'completed';
}
