import type { RealtimeCapability, RealtimeModel } from '@parley/core';
import type { RealtimeHarness, RealtimeHarnessFactory } from './harness.js';
import { type ConformanceScenario, missingCapabilities, ScenarioSkippedError } from './scenario.js';
import { scenarioWithin } from './within.js';

/** How one scenario ended. */
export type ScenarioStatus = 'pass' | 'skip' | 'fail';

/** The outcome of one scenario on one adapter. */
export interface ScenarioResult {
  readonly scenario: string;
  readonly status: ScenarioStatus;
  /** Why it was skipped (the capabilities it needs) or how it failed (the assertion's message). */
  readonly reason?: string;
  /**
   * For a skip: the capabilities the model does not declare that the scenario needs. Absent on a skip the harness
   * caused (it cannot script what the scenario needs): see `harnessSkips`.
   */
  readonly missing?: readonly RealtimeCapability[];
  /** What a failing scenario threw. */
  readonly error?: unknown;
  readonly durationMs: number;
}

/** Options of {@link runScenario}. */
export interface RunScenarioOptions {
  /** The scenario fails when it has not finished after this many milliseconds. Default 15 000. */
  timeoutMs?: number;
  /** Capabilities the model is made to declare for this run (to probe what it could declare). */
  declare?: readonly RealtimeCapability[];
}

/** The harness with its model declaring `capabilities` on top of what it declares itself. */
function declaring(harness: RealtimeHarness, capabilities: readonly RealtimeCapability[]): RealtimeHarness {
  if (capabilities.length === 0) return harness;
  const inner = harness.model;
  const model: RealtimeModel = {
    specificationVersion: inner.specificationVersion,
    provider: inner.provider,
    capabilities: {
      ...inner.capabilities,
      ...Object.fromEntries(capabilities.map((capability) => [capability, true])),
    },
    connect: (options) => inner.connect(options),
  };
  // A proxy keeps the harness's own methods (and private fields) working on the original object.
  return new Proxy(harness, {
    get(target, property) {
      if (property === 'model') return model;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * Runs one scenario on a fresh harness and always disposes the harness: skipped (with the missing capabilities)
 * where the model does not declare what it needs, or with the scenario's reason when it throws a
 * {@link ScenarioSkippedError} (its harness cannot script it), failed with the error's message when it throws or outlives
 * `timeoutMs`. Never throws itself (a harness that cannot be created is a failure too).
 */
export async function runScenario(
  scenario: ConformanceScenario,
  createHarness: RealtimeHarnessFactory,
  options: RunScenarioOptions = {},
): Promise<ScenarioResult> {
  const started = performance.now();
  const result = (status: ScenarioStatus, details: Outcome = {}) => ({
    scenario: scenario.name,
    status,
    ...details,
    durationMs: Math.round(performance.now() - started),
  });
  let harness: RealtimeHarness;
  try {
    harness = declaring(await createHarness(), options.declare ?? []);
  } catch (error) {
    return result('fail', { reason: `the harness could not be created: ${messageOf(error)}`, error });
  }
  const outcome = await runOn(harness, scenario, options.timeoutMs ?? 15_000);
  try {
    await harness.dispose();
  } catch (error) {
    if (outcome.status !== 'fail') {
      return result('fail', { reason: `the harness could not be disposed: ${messageOf(error)}`, error });
    }
  }
  return result(outcome.status, outcome);
}

interface Outcome {
  reason?: string;
  error?: unknown;
  missing?: readonly RealtimeCapability[];
}

async function runOn(
  harness: RealtimeHarness,
  scenario: ConformanceScenario,
  timeoutMs: number,
): Promise<Outcome & { status: ScenarioStatus }> {
  const missing = missingCapabilities(scenario, harness);
  if (missing.length > 0) {
    return {
      status: 'skip',
      reason: `needs ${missing.join(', ')}, which provider "${harness.model.provider}" does not declare`,
      missing,
    };
  }
  try {
    await scenarioWithin(scenario.run(harness), timeoutMs);
    return { status: 'pass' };
  } catch (error) {
    if (error instanceof ScenarioSkippedError) {
      return { status: 'skip', reason: error.message, ...(error.missing && { missing: error.missing }) };
    }
    return { status: 'fail', reason: messageOf(error), error };
  }
}
