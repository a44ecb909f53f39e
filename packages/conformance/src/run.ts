import type { RealtimeCapabilities, RealtimeCapability } from '@parley/core';
import { optionKeys } from '@parley/core/internal';
import type { RealtimeHarnessFactory } from './harness.js';
import type { CapabilityVerdict, ConformanceReport } from './report.js';
import { runScenario, type ScenarioResult } from './run-scenario.js';
import { type ConformanceScenario, scenarioCovers, withDefaults } from './scenario.js';
import { realtimeScenarios } from './scenarios/index.js';

/** Options of {@link runConformance}. */
export interface ConformanceOptions {
  /** The run's name in the report. Default the provider's name. */
  name?: string;
  /** Run these scenarios instead of all of {@link realtimeScenarios}. */
  scenarios?: readonly ConformanceScenario[];
  /** Per-scenario timeout in milliseconds. Default 15 000. */
  timeoutMs?: number;
  /**
   * Probe every capability the model does not declare: run the scenarios covering it with the capability
   * declared, and report `could_declare` when they all pass. Default `true`.
   */
  probeUndeclared?: boolean;
  /** Called after each scenario (e.g. to print progress). */
  onResult?: (result: ScenarioResult) => void;
}

const CONFORMANCE_OPTIONS = optionKeys<ConformanceOptions>('ConformanceOptions', {
  name: true,
  scenarios: true,
  timeoutMs: true,
  probeUndeclared: true,
  onResult: true,
});

/** Runs a scenario with `capability` declared on top of what the model declares. */
export type CapabilityProbe = (
  scenario: ConformanceScenario,
  capability: RealtimeCapability,
) => Promise<ScenarioResult>;

/**
 * The verdict on each capability, from the suite's results: a declared capability is `failing` when a scenario
 * covering it failed, `proven` when they passed; an undeclared one is probed (scenarios covering it, run with it
 * declared, stopping at the first failure) and is `could_declare` when every probe passed, else `fallback`.
 */
export async function judgeCapabilities(
  declared: Readonly<RealtimeCapabilities>,
  scenarios: readonly ConformanceScenario[],
  results: readonly ScenarioResult[],
  probe: CapabilityProbe | undefined,
): Promise<CapabilityVerdict[]> {
  const verdicts: CapabilityVerdict[] = [];
  for (const capability of Object.keys(declared) as RealtimeCapability[]) {
    // Flags only: the list of hosted tool kinds (`hostedTools`) is no flag a scenario proves.
    if (typeof declared[capability] !== 'boolean') continue;
    const covering = scenarios.filter((scenario) => scenarioCovers(scenario, capability));
    if (declared[capability]) {
      const ran = results.filter(
        (r) => r.status !== 'skip' && covering.some((scenario) => scenario.name === r.scenario),
      );
      const failed = ran.find((r) => r.status === 'fail');
      verdicts.push({
        capability,
        declared: true,
        status: failed ? 'failing' : ran.length > 0 ? 'proven' : 'unproven',
        scenarios: ran.map((r) => r.scenario),
        ...(failed && { reason: `${failed.scenario}: ${failed.reason ?? 'failed'}` }),
      });
      continue;
    }
    const probed: string[] = [];
    let failure: ScenarioResult | undefined;
    if (probe) {
      for (const scenario of covering) {
        const result = await probe(scenario, capability);
        if (result.status === 'skip') continue;
        probed.push(result.scenario);
        if (result.status === 'fail') {
          failure = result;
          break;
        }
      }
    }
    verdicts.push({
      capability,
      declared: false,
      status: probed.length > 0 && !failure ? 'could_declare' : 'fallback',
      scenarios: probed,
      ...(failure && { reason: `${failure.scenario}: ${failure.reason ?? 'failed'}` }),
    });
  }
  return verdicts;
}

/**
 * Runs the conformance suite against an adapter without any test runner and returns the report: each scenario
 * passed, skipped (with the capabilities it needs) or failed (with the reason), and a verdict per capability.
 * A fresh harness is created for every scenario (and every probe) and disposed after it.
 *
 * ```ts
 * const report = await runConformance(() => createMyHarness());
 * if (!report.ok) throw new Error(formatReport(report));
 * ```
 */
export async function runConformance(
  createHarness: RealtimeHarnessFactory,
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  CONFORMANCE_OPTIONS.check(options);
  const scenarios = options.scenarios ?? realtimeScenarios;
  const timeoutMs = options.timeoutMs;
  const first = await createHarness();
  const { provider, capabilities } = first.model;
  const declared = Object.freeze(withDefaults(capabilities));
  await first.dispose();

  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const result = await runScenario(scenario, createHarness, { ...(timeoutMs && { timeoutMs }) });
    results.push(result);
    options.onResult?.(result);
  }
  const probe: CapabilityProbe = (scenario, capability) =>
    runScenario(scenario, createHarness, { ...(timeoutMs && { timeoutMs }), declare: [capability] });
  const verdicts = await judgeCapabilities(
    declared,
    scenarios,
    results,
    options.probeUndeclared === false ? undefined : probe,
  );
  return {
    name: options.name ?? provider,
    provider,
    declared,
    results,
    capabilities: verdicts,
    ok: results.every((r) => r.status !== 'fail') && verdicts.every((v) => v.status !== 'failing'),
  };
}
