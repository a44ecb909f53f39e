import { writeFile } from 'node:fs/promises';
import {
  type Clock,
  PCM16_BYTES_PER_MS,
  PCM16_SAMPLE_RATE,
  RealtimeSession,
  ReportedPlaybackTracker,
  systemClock,
} from '@parley/core';
import { OpenAIRealtimeModel } from '@parley/openai';
import { createHold, type RealtimeSimulator, startRealtimeSimulator } from '@parley/openai/testing';
import { encodeWav } from '../audio/wav.js';
import type { Output } from '../output.js';
import { TranscriptPrinter } from '../transcript-printer.js';
import { runVoiceCall, type VoiceDemoSummary } from './voice-call.js';
import { bankBrain, tellerAgent } from './voice-script.js';

/** The simulator accepts any key; this one only shows where a real key would go. */
const SIMULATOR_KEY = 'sk-simulator-demo';

/** Options of {@link runVoiceDemo}. */
export interface VoiceDemoOptions {
  /** Where the agent's audio (as the caller heard it) is written as a WAV file. Default: not written. */
  wavPath?: string;
  /** The clock of the demo's stall guard. Default: the system clock. */
  clock?: Clock;
  /** How long one step of the call may take before the demo gives up. Default 10 000 ms. */
  stepTimeoutMs?: number;
  /**
   * The clock the simulator paces its responses on (they take time, as the service's do). Default: the system
   * clock; tests pass a `FastForwardClock` so the call runs in virtual time.
   */
  simulatorClock?: Clock;
}

/**
 * Runs a scripted voice call on the embedded OpenAI Realtime simulator (127.0.0.1, any free port) through
 * `OpenAIRealtimeModel` over a real WebSocket: a spoken question and a tool call, two parallel tool calls answered by
 * one follow-up, a handoff, a barge-in truncated at the heard position, and an ephemeral one-time code that stays out
 * of the history. Prints a live timeline; the session and the simulator are closed on every path.
 */
export async function runVoiceDemo(
  output: Output,
  options: VoiceDemoOptions = {},
): Promise<VoiceDemoSummary> {
  const printer = new TranscriptPrinter(output);
  const midAnswer = createHold('mid-answer');
  const sim: RealtimeSimulator = await startRealtimeSimulator({
    port: 0,
    brain: bankBrain(midAnswer),
    clock: options.simulatorClock ?? systemClock,
  });
  try {
    const session = new RealtimeSession(tellerAgent, {
      model: new OpenAIRealtimeModel({ apiKey: SIMULATOR_KEY, url: sim.url }),
      // The demo "plays" the audio itself and reports what the caller heard, so positions never depend on timing.
      playbackTracker: new ReportedPlaybackTracker(),
      config: { voice: 'marin', turnDetection: null, inputTranscription: {} },
      reconnect: false,
    });
    try {
      printer.title(
        'Parley voice demo: a realtime voice agent on the embedded OpenAI Realtime simulator (no API key, no network)',
      );
      const summary = await runVoiceCall({
        session,
        sim,
        printer,
        midAnswer,
        clock: options.clock ?? systemClock,
        stepTimeoutMs: options.stepTimeoutMs ?? 10_000,
      });
      if (options.wavPath !== undefined) {
        await writeFile(options.wavPath, encodeWav(summary.heardAudio, PCM16_SAMPLE_RATE));
      }
      printer.summary(
        `${summary.toolCalls} tool calls (${summary.parallelToolCalls} in parallel, ${summary.followUpRequests} follow-up), ` +
          `${summary.handoffs.length} handoff, ${summary.spokenReplies} spoken replies, ` +
          `1 barge-in (heard ${summary.heardMs} ms, truncated at ${summary.truncatedAtMs} ms), ` +
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
    await sim.close();
  }
}
