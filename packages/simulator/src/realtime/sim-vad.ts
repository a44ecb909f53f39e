import type { WireTurnDetection } from '@parley/openai/wire';
import type { EnergyVadSettings } from '../shared/energy-vad.js';

/**
 * How the Realtime simulator's server VAD listens (to PCM16 24 kHz): a frame is speech at an RMS level of
 * `threshold / 10` (0.05 for the default 0.5); speech stops after `silence_duration_ms` (default 200) and starts
 * `prefix_padding_ms` (default 300) before its first speech frame. `semantic_vad` behaves as server VAD with 500 ms
 * of silence.
 */
export function vadSettings(config: WireTurnDetection): EnergyVadSettings & { prefixMs: number } {
  const server = config.type === 'server_vad';
  return {
    rate: 24_000,
    level: (server ? (config.threshold ?? 0.5) : 0.5) / 10,
    silenceMs: server ? (config.silence_duration_ms ?? 200) : 500,
    prefixMs: server ? (config.prefix_padding_ms ?? 300) : 300,
  };
}
