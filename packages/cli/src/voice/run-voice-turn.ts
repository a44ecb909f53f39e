import { writeFile } from 'node:fs/promises';
import {
  type Clock,
  PCM16_BYTES_PER_MS,
  PCM16_SAMPLE_RATE,
  RealtimeSession,
  systemClock,
} from '@parley/core';
import { createHold } from '@parley/simulator';
import { encodeWav } from '../audio/wav.js';
import type { Output } from '../output.js';
import type { RealtimeProviderName } from '../providers/realtime-target.js';
import { realtimeTarget } from '../providers/realtime-target.js';
import { TranscriptPrinter } from '../transcript-printer.js';
import { CallRecording } from '../voice-demo/call-recording.js';
import { guarded } from '../voice-demo/step-guard.js';
import { TurnResponses } from '../voice-demo/turn-responses.js';
import { bankBrain, tellerAgent } from '../voice-demo/voice-script.js';
import type { QuestionAudio } from './question-audio.js';

/** Options of {@link runVoiceTurn}. */
export interface VoiceTurnOptions {
  question: QuestionAudio;
  /** Where the answer is written as WAV. */
  outPath: string;
  provider: RealtimeProviderName;
  env: Readonly<Record<string, string | undefined>>;
  out: Output;
  clock?: Clock;
  /** How long one step may take. Default 15 000 ms on the simulator, 30 000 ms on a real service. */
  stepTimeoutMs?: number;
}

/** What one voice turn produced. */
export interface VoiceTurnSummary {
  transcript: string;
  toolCalls: number;
  /** The assistant's spoken answers, in order. */
  answers: string[];
  answerMs: number;
}

const CHUNK_BYTES = 1000 * PCM16_BYTES_PER_MS;

/**
 * One voice turn: the question goes in as audio (committed), the agent answers (calling tools, handing off) until a
 * response ends without a tool call; transcript, tool calls and answers are printed, the answer audio written as WAV.
 */
export async function runVoiceTurn(options: VoiceTurnOptions): Promise<VoiceTurnSummary> {
  const { out, question } = options;
  const printer = new TranscriptPrinter(out);
  const clock = options.clock ?? systemClock;
  const stepMs = options.stepTimeoutMs ?? (options.provider === 'simulator' ? 15_000 : 30_000);
  const step = <T>(name: string, promise: Promise<T>) => guarded(clock, stepMs, name, promise);
  const noHold = createHold();
  noHold.release();
  const target = await realtimeTarget(options.provider, options.env, bankBrain(noHold));
  try {
    const session = new RealtimeSession(tellerAgent, {
      model: target.model,
      config: { turnDetection: null, inputTranscription: {} },
      reconnect: false,
    });
    const recording = new CallRecording();
    const turns = new TurnResponses(session);
    let toolCalls = 0;
    session.on('audio', (e) => recording.add(e.itemId, e.data));
    session.on('tool_started', (e) => {
      toolCalls++;
      printer.say(e.agent.name, `⚙ ${e.name}(${e.arguments})`);
    });
    session.on('tool_done', (e) => printer.toolResult(e.name, e.output));
    session.on('handoff', (e) => printer.say(e.from.name, `⇢ hands the call to ${e.to.name}`));
    session.on('error', (e) => printer.say('session', `⚠ ${e.source} error ${e.code}: ${e.message}`));
    let transcript: string | undefined;
    const heard = (text: string) => {
      if (transcript !== undefined) return;
      transcript = text;
      printer.more(`↳ transcribed: ${text ? `"${text}"` : '(no words recognized)'}`);
    };
    for (const type of ['history_added', 'history_updated'] as const) {
      session.on(type, ({ item }) => {
        if (item.type === 'message' && item.role === 'user' && item.text !== '') heard(item.text);
      });
    }
    try {
      printer.title(`Parley voice: one turn with a realtime voice agent on ${target.label}`);
      await step('connect', session.connect());
      for (let at = 0; at < question.pcm.byteLength; at += CHUNK_BYTES) {
        session.sendAudio(question.pcm.subarray(at, at + CHUNK_BYTES));
      }
      session.commitAudio();
      printer.say('caller', `🎙 ${question.description}, committed`);

      const answers: string[] = [];
      for (const { responseId } of await turns.untilAnswer((response) => step('the answer', response))) {
        heard(userTranscript(session));
        const message = session.history.find(
          (item) => item.type === 'message' && item.role === 'assistant' && item.responseId === responseId,
        );
        if (message?.type === 'message' && message.text !== '') {
          answers.push(message.text);
          printer.say(message.agentName ?? session.currentAgent.name, `🔊 "${message.text}"`);
        }
      }
      const pcm = recording.pcm();
      await writeFile(options.outPath, encodeWav(pcm, PCM16_SAMPLE_RATE));
      const answerMs = pcm.byteLength / PCM16_BYTES_PER_MS;
      printer.summary(
        `The answer (${answerMs} ms of audio, ${PCM16_SAMPLE_RATE} Hz mono): ${options.outPath}`,
      );
      return { transcript: transcript ?? '', toolCalls, answers, answerMs };
    } finally {
      await session.close();
    }
  } finally {
    await target.close();
  }
}

function userTranscript(session: RealtimeSession): string {
  for (let i = session.history.length - 1; i >= 0; i--) {
    const item = session.history[i];
    if (item?.type === 'message' && item.role === 'user') return item.text;
  }
  return '';
}
