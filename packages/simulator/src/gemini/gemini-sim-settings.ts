import type { Clock } from '@parley/core';
import { optionKeys } from '@parley/core/internal';
import { DEFAULT_PACE, type SimulatorPacing } from '../shared/pace.js';

/** Close codes the simulated service ends a connection with. The service documents none of them; these are the ones
 * its gateway is seen to use. */
export interface GeminiSimulatorCloseCodes {
  /** A malformed or invalid message, an invalid API key. Default 1007. */
  invalidArgument?: number;
  /** An unknown model, an unknown or expired resumption handle. Default 1008. */
  notFound?: number;
  /** The connection reached its lifetime after `goAway`. Default 1000. */
  lifetime?: number;
}

/** Options of {@link startGeminiSimulator}. */
export interface GeminiSimulatorOptions {
  /** Loopback port; default a free one. */
  port?: number;
  /** The clock the simulator paces turns and lifetimes on. Default the system clock. */
  clock?: Clock;
  /** How fast turns stream (`'instant'`: all at once). Default first output after 500 ms, 5× real time. */
  pace?: SimulatorPacing;
  /** Gemini API keys the simulator accepts (`?key=` or `x-goog-api-key`). Default `['test-key']`. */
  apiKeys?: string[];
  /** Ephemeral tokens (`auth_tokens/…`) it accepts on `BidiGenerateContentConstrained`. Default `['auth_tokens/test-token']`. */
  ephemeralTokens?: string[];
  /** Vertex AI OAuth access tokens it accepts (`Authorization: Bearer`). Default `['test-access-token']`. */
  accessTokens?: string[];
  /** Model names (without `models/`) it serves. Default any. */
  models?: string[];
  /** How long a connection lives; `goAway` comes `goAwayNoticeMs` before. Default 10 minutes. */
  lifetimeMs?: number;
  /** Default 10 s. */
  goAwayNoticeMs?: number;
  /** How long a resumption handle stays valid after its connection closed. Default 2 hours. */
  handleTtlMs?: number;
  /** What a setup with an unknown or expired handle gets: a close (default) or a fresh session. */
  unknownHandle?: 'close' | 'fresh';
  closeCodes?: GeminiSimulatorCloseCodes;
  /** Silence that ends the user's activity under automatic activity detection. Default 500 ms. */
  silenceMs?: number;
  /** `usageMetadata` counts each turn (default) or the session so far. */
  usage?: 'per-turn' | 'cumulative';
  /** Whether the last input transcription fragment of a user turn says `finished: true`. Default `false`. */
  inputTranscriptionFinished?: boolean;
}

export const SIMULATOR_OPTIONS = optionKeys<GeminiSimulatorOptions>('GeminiSimulatorOptions', {
  port: true,
  clock: true,
  pace: true,
  apiKeys: true,
  ephemeralTokens: true,
  accessTokens: true,
  models: true,
  lifetimeMs: true,
  goAwayNoticeMs: true,
  handleTtlMs: true,
  unknownHandle: true,
  closeCodes: true,
  silenceMs: true,
  usage: true,
  inputTranscriptionFinished: true,
});

export interface ResolvedSimulatorSettings {
  pace: { firstOutputMs: number; speed: number } | undefined;
  apiKeys: readonly string[];
  ephemeralTokens: readonly string[];
  accessTokens: readonly string[];
  lifetimeMs: number;
  goAwayNoticeMs: number;
  handleTtlMs: number;
  unknownHandle: 'close' | 'fresh';
  closeCodes: Required<GeminiSimulatorCloseCodes>;
  silenceMs: number;
  usage: 'per-turn' | 'cumulative';
  inputTranscriptionFinished: boolean;
  /** Why the model of a setup is refused, or `undefined` when it is served. */
  checkModel(model: string | undefined): string | undefined;
}

const GEMINI_MODEL = /^models\/([\w.-]+)$/;
const VERTEX_MODEL = /^projects\/[^/]+\/locations\/[^/]+\/publishers\/google\/models\/([\w.-]+)$/;

export function resolveSimulatorSettings(options: GeminiSimulatorOptions): ResolvedSimulatorSettings {
  SIMULATOR_OPTIONS.check(options);
  const pace = options.pace === 'instant' ? undefined : { ...DEFAULT_PACE, ...options.pace };
  if (pace && (!(pace.speed > 0) || !(pace.firstOutputMs >= 0))) {
    throw new TypeError("Simulator pace needs speed > 0 and firstOutputMs ≥ 0 (or pace: 'instant').");
  }
  const models = options.models;
  return {
    pace,
    apiKeys: options.apiKeys ?? ['test-key'],
    ephemeralTokens: options.ephemeralTokens ?? ['auth_tokens/test-token'],
    accessTokens: options.accessTokens ?? ['test-access-token'],
    lifetimeMs: options.lifetimeMs ?? 600_000,
    goAwayNoticeMs: options.goAwayNoticeMs ?? 10_000,
    handleTtlMs: options.handleTtlMs ?? 7_200_000,
    unknownHandle: options.unknownHandle ?? 'close',
    closeCodes: { invalidArgument: 1007, notFound: 1008, lifetime: 1000, ...options.closeCodes },
    silenceMs: options.silenceMs ?? 500,
    usage: options.usage ?? 'per-turn',
    inputTranscriptionFinished: options.inputTranscriptionFinished ?? false,
    checkModel(model) {
      const name = GEMINI_MODEL.exec(model ?? '')?.[1] ?? VERTEX_MODEL.exec(model ?? '')?.[1];
      if (name !== undefined && (models === undefined || models.includes(name))) return undefined;
      return `${model ?? '(no model)'} is not found for API version v1beta, or is not supported for bidiGenerateContent.`;
    },
  };
}
