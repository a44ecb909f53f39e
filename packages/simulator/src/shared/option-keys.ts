import { optionKeys } from '@parley/core/internal';
import type { LiveSimulatorHarnessOptions } from '../live/live-harness.js';
import type { LiveSimulatorOptions } from '../live/live-simulator.js';
import type { RealtimeSimulatorOptions, SimulatorStrictness } from '../realtime/simulator.js';
import type { SimulatorHarnessOptions } from '../realtime/simulator-harness.js';
import type { FastForwardClockOptions } from './fast-forward-clock.js';
import type { SpeechAudioOptions } from './sim-audio.js';

/** The valid keys of the testing entry's options objects (unknown keys throw `UnknownOptionError`). */
const SIMULATOR_KEYS = {
  port: true,
  auth: true,
  sessionLimitMs: true,
  clock: true,
  pace: true,
  msPerChar: true,
  chunkMs: true,
  transcribe: true,
  onConnection: true,
  session: true,
  strict: true,
  keepEndedConnections: true,
  maxBufferedBytes: true,
  mcpServers: true,
} as const;

export const SIMULATOR_OPTIONS = optionKeys<RealtimeSimulatorOptions>('RealtimeSimulatorOptions', {
  ...SIMULATOR_KEYS,
  brain: true,
});
export const STRICTNESS_OPTIONS = optionKeys<SimulatorStrictness>('SimulatorStrictness', {
  modelChange: true,
});
export const HARNESS_OPTIONS = optionKeys<SimulatorHarnessOptions>('SimulatorHarnessOptions', {
  createModel: true,
  simulator: true,
  sessionClock: true,
});
export const HARNESS_SIMULATOR_OPTIONS = optionKeys<Omit<RealtimeSimulatorOptions, 'brain'>>(
  'SimulatorHarnessOptions',
  SIMULATOR_KEYS,
);
export const SPEECH_AUDIO_OPTIONS = optionKeys<SpeechAudioOptions>('SpeechAudioOptions', {
  durationMs: true,
  amplitude: true,
});
export const FAST_FORWARD_CLOCK_OPTIONS = optionKeys<FastForwardClockOptions>('FastForwardClockOptions', {
  idleTurns: true,
  maxJumpMs: true,
});
export const LIVE_SIMULATOR_OPTIONS = optionKeys<LiveSimulatorOptions>('LiveSimulatorOptions', {
  port: true,
  apiKeys: true,
  azure: true,
  brain: true,
  clock: true,
  sessionLimitMs: true,
  msPerChar: true,
  appendLatencyMs: true,
  endOfUtteranceMs: true,
  interimTranscriptMs: true,
  usageIntervalMs: true,
  acknowledgement: true,
  updateLatencyMs: true,
  startupCloseDelayMs: true,
  transcribe: true,
});

export const LIVE_HARNESS_OPTIONS = optionKeys<LiveSimulatorHarnessOptions>('LiveSimulatorHarnessOptions', {
  createModel: true,
  simulator: true,
});
