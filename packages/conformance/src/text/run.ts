import { errorText, optionKeys } from '@parley/core/internal';
import { scenarioWithin } from '../within.js';
import type { TextModelHarness, TextModelHarnessFactory } from './harness.js';
import type { TextConformanceScenario, TextModelCapability } from './scenario.js';
import { textModelScenarios } from './scenarios.js';

/** How one text scenario ended on one model. */
export interface TextScenarioResult {
  readonly scenario: string;
  readonly status: 'pass' | 'skip' | 'fail';
  /** Why it was skipped (the capabilities it needs) or how it failed. */
  readonly reason?: string;
  readonly error?: unknown;
  readonly durationMs: number;
}

/** Everything a text conformance run found for one model. */
export interface TextConformanceReport {
  /** The run's name, else the provider's. */
  readonly name: string;
  readonly provider: string;
  readonly declared: Readonly<Record<TextModelCapability, boolean>>;
  readonly results: readonly TextScenarioResult[];
  /** `false` when a scenario failed (a declared capability failed its scenarios, or a basic behaviour failed). */
  readonly ok: boolean;
}

/** Options of {@link runTextConformance}. */
export interface TextConformanceOptions {
  /** The run's name in the report. Default the provider's name. */
  name?: string;
  /** Run these scenarios instead of all of {@link textModelScenarios}. */
  scenarios?: readonly TextConformanceScenario[];
  /** Per-scenario timeout in milliseconds. Default 15 000. */
  timeoutMs?: number;
  /** Called after each scenario (e.g. to print progress). */
  onResult?: (result: TextScenarioResult) => void;
}

const OPTIONS = optionKeys<TextConformanceOptions>('TextConformanceOptions', {
  name: true,
  scenarios: true,
  timeoutMs: true,
  onResult: true,
});

function messageOf(error: unknown): string {
  return errorText(error);
}

/**
 * Runs one text scenario on a fresh harness and always disposes it: skipped where the model does not declare what
 * the scenario needs, failed with the error's message when it throws or outlives `timeoutMs`. Never throws.
 */
export async function runTextScenario(
  scenario: TextConformanceScenario,
  createHarness: TextModelHarnessFactory,
  options: { timeoutMs?: number } = {},
): Promise<TextScenarioResult> {
  const started = performance.now();
  const result = (
    status: TextScenarioResult['status'],
    details: { reason?: string; error?: unknown } = {},
  ) => ({
    scenario: scenario.name,
    status,
    ...details,
    durationMs: Math.round(performance.now() - started),
  });
  let harness: TextModelHarness;
  try {
    harness = await createHarness();
  } catch (error) {
    return result('fail', { reason: `the harness could not be created: ${messageOf(error)}`, error });
  }
  let outcome: { status: TextScenarioResult['status']; reason?: string; error?: unknown };
  const missing = scenario.requires.filter((capability) => !harness.model.capabilities[capability]);
  if (missing.length > 0) {
    outcome = {
      status: 'skip',
      reason: `needs ${missing.join(', ')}, which provider "${harness.model.provider}" does not declare`,
    };
  } else {
    try {
      await scenarioWithin(scenario.run(harness), options.timeoutMs ?? 15_000);
      outcome = { status: 'pass' };
    } catch (error) {
      outcome = { status: 'fail', reason: messageOf(error), error };
    }
  }
  try {
    await harness.dispose();
  } catch (error) {
    if (outcome.status !== 'fail') {
      return result('fail', { reason: `the harness could not be disposed: ${messageOf(error)}`, error });
    }
  }
  return result(outcome.status, outcome);
}

/**
 * Runs the text conformance scenarios against a text model without any test runner and returns the report. A fresh
 * harness is created for every scenario and disposed after it.
 *
 * ```ts
 * const report = await runTextConformance(() => createMyHarness());
 * if (!report.ok) throw new Error(formatTextReport(report));
 * ```
 */
export async function runTextConformance(
  createHarness: TextModelHarnessFactory,
  options: TextConformanceOptions = {},
): Promise<TextConformanceReport> {
  OPTIONS.check(options);
  const first = await createHarness();
  const { provider, capabilities } = first.model;
  const declared = Object.freeze({
    streaming: capabilities.streaming,
    tools: capabilities.tools,
    structuredOutput: capabilities.structuredOutput,
    parallelToolCalls: capabilities.parallelToolCalls,
  });
  await first.dispose();
  const results: TextScenarioResult[] = [];
  for (const scenario of options.scenarios ?? textModelScenarios) {
    const result = await runTextScenario(scenario, createHarness, {
      ...(options.timeoutMs && { timeoutMs: options.timeoutMs }),
    });
    results.push(result);
    options.onResult?.(result);
  }
  return {
    name: options.name ?? provider,
    provider,
    declared,
    results,
    ok: results.every((r) => r.status !== 'fail'),
  };
}

const SYMBOL: Record<TextScenarioResult['status'], string> = { pass: '✔', skip: '-', fail: '✘' };

/** A plain-text rendering of a text conformance report, one line per scenario. */
export function formatTextReport(report: TextConformanceReport): string {
  const lines = [`text conformance: ${report.name} (${report.ok ? 'passed' : 'FAILED'})`];
  for (const result of report.results) {
    lines.push(`  ${SYMBOL[result.status]} ${result.scenario}${result.reason ? ` — ${result.reason}` : ''}`);
  }
  return lines.join('\n');
}
