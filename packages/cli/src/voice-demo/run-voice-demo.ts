import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  audioBytesPerMs,
  type Clock,
  type ConversationItem,
  PCM16_SAMPLE_RATE,
  type RealtimeAudioFormat,
  RealtimeSession,
  ReportedPlaybackTracker,
  systemClock,
} from '@parley/core';
import { type MemoryStore, storeSession } from '@parley/memory';
import { createHold, g711ToPcm16 } from '@parley/simulator';
import { encodeWav } from '../audio/wav.js';
import type { Output } from '../output.js';
import { type RealtimeProviderName, realtimeTarget } from '../providers/realtime-target.js';
import { TranscriptPrinter } from '../transcript-printer.js';
import { serviceBackend, simulatorBackend, type WireAudioFormat } from './call-backend.js';
import { type DemoMemory, openDemoMemory, reportStoredCall } from './demo-memory.js';
import { ringBack } from './ring-back.js';
import { guarded } from './step-guard.js';
import { runVoiceCall, type VoiceDemoSummary } from './voice-call.js';
import { bankBrain, CODE_WORDS, HEARD_MS, tellerAgent } from './voice-script.js';

/** Where `parley demo` keeps its calls by default: the embedded store, in the temp folder. */
export const DEFAULT_DEMO_MEMORY_DIR = join(tmpdir(), 'parley-demo-memory');

/** Options of {@link runVoiceDemo}. */
export interface VoiceDemoOptions {
  /** Where the agent's audio (as the caller heard it) is written as a WAV file. Default: not written. */
  wavPath?: string;
  /** `simulator` (embedded, the default), or the real `openai` / `azure` service from `env`'s variables. */
  provider?: RealtimeProviderName;
  /** Where a real provider's variables come from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The clock of the demo's stall guard. Default: the system clock. */
  clock?: Clock;
  /** How long one step of the call may take before the demo gives up. Default 10 000 ms (30 000 on a real service). */
  stepTimeoutMs?: number;
  /**
   * The clock the simulator paces its responses on (they take time, as the service's do). Default: the system
   * clock; tests pass a `FastForwardClock` so the call runs in virtual time.
   */
  simulatorClock?: Clock;
  /**
   * The session's audio format, input and output: `pcm16` (24 kHz, the default), or G.711 `g711_ulaw` / `g711_alaw`
   * (8 kHz). The WAV file is PCM16 at the format's rate (G.711 decoded to PCM16 at 8 kHz).
   */
  audioFormat?: RealtimeAudioFormat;
  /**
   * Where the call is stored as the caller heard it (the session's `memory`): the embedded PGlite store in
   * `dataDir` (the default: {@link DEFAULT_DEMO_MEMORY_DIR}), a store of your own, or `false` for none.
   */
  memory?: { dataDir: string } | { store: MemoryStore; label: string } | false;
}

/** {@link VoiceDemoSummary} and what the call left in memory. */
export interface VoiceDemoResult extends VoiceDemoSummary {
  /** The items the store holds for the call, read back after it; `undefined` without memory. */
  storedItems: ConversationItem[] | undefined;
  /** The agent's answer on the second call (the caller rings back), from memory alone; `undefined` without memory. */
  ringBackAnswer: string | undefined;
}

const WIRE_FORMATS: Record<RealtimeAudioFormat, WireAudioFormat> = {
  pcm16: { type: 'audio/pcm', rate: 24000 },
  g711_ulaw: { type: 'audio/pcmu' },
  g711_alaw: { type: 'audio/pcma' },
};

/** The heard audio as a WAV file: PCM16 as is, G.711 decoded to PCM16 at 8 kHz. */
function heardWav(audio: Uint8Array, format: WireAudioFormat): Uint8Array {
  return format.type === 'audio/pcm'
    ? encodeWav(audio, PCM16_SAMPLE_RATE)
    : encodeWav(g711ToPcm16(audio, format.type), 8000);
}

/**
 * Runs the voice call through a `RealtimeSession` on the embedded OpenAI Realtime simulator (127.0.0.1, any free port,
 * `OpenAIRealtimeModel` over a real WebSocket) or a real service: a question and a tool call, two parallel tool calls
 * answered by one follow-up, a handoff, a barge-in truncated at the heard position, and an ephemeral one-time code
 * that stays out of the history. Prints a live timeline; the session and the simulator are closed on every path.
 */
export async function runVoiceDemo(output: Output, options: VoiceDemoOptions = {}): Promise<VoiceDemoResult> {
  const printer = new TranscriptPrinter(output);
  const provider = options.provider ?? 'simulator';
  const midAnswer = createHold('mid-answer');
  const audioFormat = options.audioFormat ?? 'pcm16';
  const wireFormat = WIRE_FORMATS[audioFormat];
  const bytesPerMs = audioBytesPerMs(audioFormat);
  // G.711 keeps the speech's energy but not the words `speechAudio` embeds: the simulator then "hears" what was asked.
  const asked: string[] = [];
  const target = await realtimeTarget(
    provider,
    options.env ?? process.env,
    bankBrain(midAnswer),
    options.simulatorClock,
    (_audio, { heard }) => heard || (asked.at(-1) ?? ''),
  );
  let memory: DemoMemory | undefined;
  try {
    printer.title(
      target.sim
        ? 'Parley voice demo: a realtime voice agent on the embedded OpenAI Realtime simulator (no API key, no network)'
        : `Parley voice demo: a realtime voice agent on ${target.label}`,
    );
    memory = await demoMemory(options.memory, printer);
    // Each run is a new call (the scripted simulator starts every call afresh); the store keeps them all.
    const conversationId = `demo-call-${Date.now().toString(36)}`;
    const session = new RealtimeSession(tellerAgent, {
      model: target.model,
      // The demo "plays" the audio itself and reports what the caller heard, so positions never depend on timing.
      playbackTracker: new ReportedPlaybackTracker(),
      config: {
        voice: 'marin',
        turnDetection: null,
        inputTranscription: {},
        inputAudioFormat: audioFormat,
        outputAudioFormat: audioFormat,
      },
      reconnect: false,
      ...(memory && { memory: storeSession(memory.store, conversationId) }),
    });
    try {
      const summary = await runVoiceCall({
        session,
        backend: target.sim
          ? simulatorBackend(target.sim, midAnswer, wireFormat, asked)
          : serviceBackend(target.label, HEARD_MS),
        printer,
        clock: options.clock ?? systemClock,
        stepTimeoutMs: options.stepTimeoutMs ?? (target.sim ? 10_000 : 30_000),
        bytesPerMs,
      });
      if (options.wavPath !== undefined) {
        await writeFile(options.wavPath, heardWav(summary.heardAudio, wireFormat));
      }
      // On the first run the store may still be in preparation: the writes wait for it, and closing waits (bounded)
      // only for the writes themselves. Then the store is read back.
      await guarded(
        options.clock ?? systemClock,
        120_000,
        'the embedded store to be ready',
        memory?.ready() ?? Promise.resolve(),
      );
      await session.close();
      const storedItems = memory && (await reportStoredCall(memory, conversationId, printer, CODE_WORDS));
      const ringBackAnswer =
        memory &&
        (await ringBack({
          model: target.model,
          store: memory.store,
          conversationId,
          printer,
          clock: options.clock ?? systemClock,
          stepTimeoutMs: options.stepTimeoutMs ?? (target.sim ? 10_000 : 30_000),
        }));
      const bargeIn =
        summary.heardMs === 0
          ? 'no barge-in (the answer ended first)'
          : `1 barge-in (heard ${summary.heardMs} ms${summary.truncatedAtMs === undefined ? '' : `, truncated at ${summary.truncatedAtMs} ms`})`;
      printer.summary(
        `${summary.toolCalls} tool calls (${summary.parallelToolCalls} in parallel, ${summary.followUpRequests} follow-up), ` +
          `${summary.handoffs.length} handoff, ${summary.spokenResponses} spoken responses, ${bargeIn}, ` +
          `1 ephemeral response; history ${summary.historyBefore} → ${summary.historyAfter} items` +
          `${storedItems ? `, ${storedItems.length} stored` : ''}.`,
      );
      if (options.wavPath !== undefined) {
        output.line(
          `The agent's audio as the caller heard it (${summary.heardAudio.byteLength / bytesPerMs} ms): ${options.wavPath}`,
        );
      }
      return { ...summary, storedItems, ringBackAnswer };
    } finally {
      await session.close();
    }
  } finally {
    midAnswer.release();
    await memory?.close();
    await target.close();
  }
}

async function demoMemory(
  option: VoiceDemoOptions['memory'],
  printer: TranscriptPrinter,
): Promise<DemoMemory | undefined> {
  if (option === false) return undefined;
  if (option !== undefined && 'store' in option) {
    return { store: option.store, label: option.label, ready: async () => {}, close: async () => {} };
  }
  return await openDemoMemory(option?.dataDir ?? DEFAULT_DEMO_MEMORY_DIR, printer);
}
