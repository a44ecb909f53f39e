import type { ModelCapabilities } from '@parley/core';
import type { TextModelHarness } from './harness.js';

/** A capability flag of a text model (hosted tool kinds are a list, not a flag). */
export type TextModelCapability = Exclude<keyof ModelCapabilities, 'hostedTools'>;

/** One behaviour every text model must show, written once against the `Runner` and the `Model` seam. */
export interface TextConformanceScenario {
  /** A short sentence naming the behaviour. */
  readonly name: string;
  /** Capabilities the scenario needs; it is skipped, with the reason, where the model does not declare one. */
  readonly requires: readonly TextModelCapability[];
  /** Runs the scenario; throws (an assertion) when the model misbehaves. */
  run(harness: TextModelHarness): Promise<void>;
}
