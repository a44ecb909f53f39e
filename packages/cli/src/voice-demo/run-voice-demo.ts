import { writeFile } from 'node:fs/promises';
import {
  type Clock,
  PCM16_BYTES_PER_MS,
  PCM16_SAMPLE_RATE,
  RealtimeSession,
  ReportedPlaybackTracker,
  systemClock,
} from '@parley/core';
import { createHold } from '@parley/openai/testing';
import { encodeWav } from '../audio/wav.js';
import type { Output } from '../output.js';
import { type RealtimeProviderName, realtimeTarget } from '../providers/realtime-target.js';
import { TranscriptPrinter } from '../transcript-printer.js';
import { serviceBackend, simulatorBackend } from './call-backend.js';
import { runVoiceCall, type VoiceDemoSummary } from './voice-call.js';
import { bankBrain, HEARD_MS, tellerAgent } from './voice-script.js';

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
}

/**
 * Runs the voice call through a `RealtimeSession` on the embedded OpenAI Realtime simulator (127.0.0.1, any free port,
 * `OpenAIRealtimeModel` over a real WebSocket) or a real service: a question and a tool call, two parallel tool calls
 * answered by one follow-up, a handoff, a barge-in truncated at the heard position, and an ephemeral one-time code
 * that stays out of the history. Prints a live timeline; the session and the simulator are closed on every path.
 */
export async function runVoiceDemo(
  output: Output,
  options: VoiceDemoOptions = {},
): Promise<VoiceDemoSummary> {
  const printer = new TranscriptPrinter(output);
  const provider = options.provider ?? 'simulator';
  const midAnswer = createHold('mid-answer');
  const target = await realtimeTarget(
    provider,
    options.env ?? process.env,
    bankBrain(midAnswer),
    options.simulatorClock,
  );
  try {
    const session = new RealtimeSession(tellerAgent, {
      model: target.model,
      // The demo "plays" the audio itself and reports what the caller heard, so positions never depend on timing.
      playbackTracker: new ReportedPlaybackTracker(),
      config: { voice: 'marin', turnDetection: null, inputTranscription: {} },
      reconnect: false,
    });
    try {
      printer.title(
        target.sim
          ? 'Parley voice demo: a realtime voice agent on the embedded OpenAI Realtime simulator (no API key, no network)'
          : `Parley voice demo: a realtime voice agent on ${target.label}`,
      );
      const summary = await runVoiceCall({
        session,
        backend: target.sim
          ? simulatorBackend(target.sim, midAnswer)
          : serviceBackend(target.label, HEARD_MS),
        printer,
        clock: options.clock ?? systemClock,
        stepTimeoutMs: options.stepTimeoutMs ?? (target.sim ? 10_000 : 30_000),
      });
      if (options.wavPath !== undefined) {
        await writeFile(options.wavPath, encodeWav(summary.heardAudio, PCM16_SAMPLE_RATE));
      }
      const bargeIn =
        summary.heardMs === 0
          ? 'no barge-in (the answer ended first)'
          : `1 barge-in (heard ${summary.heardMs} ms${summary.truncatedAtMs === undefined ? '' : `, truncated at ${summary.truncatedAtMs} ms`})`;
      printer.summary(
        `${summary.toolCalls} tool calls (${summary.parallelToolCalls} in parallel, ${summary.followUpRequests} follow-up), ` +
          `${summary.handoffs.length} handoff, ${summary.spokenReplies} spoken replies, ${bargeIn}, ` +
          `1 ephemeral reply; history ${summary.historyBefore} → ${summary.historyAfter} items.`,
      );
      if (options.wavPath !== undefined) {
        output.line(
          `The agent's audio as the caller heard it (${summary.heardAudio.byteLength / PCM16_BYTES_PER_MS} ms): ${options.wavPath}`,
        );
      }
      return summary;
    } finally {
      await session.close();
    }
  } finally {
    midAnswer.release();
    await target.close();
  }
}
