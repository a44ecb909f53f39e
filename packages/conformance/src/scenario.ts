import {
  declaresCapability,
  ParleyError,
  REALTIME_CAPABILITY_DEFAULTS_V1,
  type RealtimeCapabilities,
  type RealtimeCapability,
} from '@parley/core';
import { brand } from '@parley/core/internal';
import type { RealtimeHarness } from './harness.js';

/** One behaviour every adapter must show, written once against the seam and the session. */
export interface ConformanceScenario {
  /** A short sentence naming the behaviour. */
  readonly name: string;
  /** Capabilities the scenario needs; it is skipped, with the reason, where one is not declared. */
  readonly requires: readonly RealtimeCapability[];
  /**
   * Capabilities whose declaration the scenario checks either way: declared, it checks the capability's behaviour;
   * not declared, it checks the session's fallback. A scenario proves (and probes) the capabilities it requires
   * and those it exercises.
   */
  readonly exercises?: readonly RealtimeCapability[];
  /** Runs the scenario; throws (an assertion) when the adapter misbehaves. */
  run(harness: RealtimeHarness): Promise<void>;
}

/** The capabilities `scenario` needs that `harness`'s model does not declare. */
export function missingCapabilities(
  scenario: ConformanceScenario,
  harness: RealtimeHarness,
): RealtimeCapability[] {
  return scenario.requires.filter(
    (capability) => !declaresCapability(harness.model.capabilities, capability),
  );
}

/**
 * The capabilities as the session reads them: an optional flag with a default other than `false` that the provider
 * does not name is listed with its default (so the report judges it as declared).
 */
export function withDefaults(capabilities: Readonly<RealtimeCapabilities>): RealtimeCapabilities {
  return { ...REALTIME_CAPABILITY_DEFAULTS_V1, ...capabilities };
}

/** `true` when the scenario's outcome says something about `capability` (it requires or exercises it). */
export function scenarioCovers(scenario: ConformanceScenario, capability: RealtimeCapability): boolean {
  return scenario.requires.includes(capability) || (scenario.exercises?.includes(capability) ?? false);
}

/**
 * Thrown by a scenario that cannot run: the scenario is reported skipped, with `reason`. `missing` names the
 * capabilities whose absence stops it (where its premise depends on which of several the model declares); without
 * it, the skip is the harness's: it cannot script what the scenario needs.
 */
export class ScenarioSkippedError extends ParleyError {
  static {
    brand(ScenarioSkippedError, 'conformance.ScenarioSkippedError');
  }

  /** The capabilities the model does not declare that the scenario needs; absent for a harness's skip. */
  readonly missing: readonly RealtimeCapability[] | undefined;

  constructor(reason: string, options: { missing?: readonly RealtimeCapability[] } = {}) {
    super('conformance_skipped', reason);
    this.missing = options.missing;
  }
}
