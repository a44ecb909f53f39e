import type { RealtimeCapabilities, RealtimeCapability } from '@parley/core';
import type { ScenarioResult } from './run-scenario.js';

/**
 * What a conformance run says about one capability:
 * - `proven`: declared, and every scenario covering it passed;
 * - `failing`: declared, and a scenario covering it failed (the run fails);
 * - `unproven`: declared, but no scenario covering it ran;
 * - `could_declare`: not declared, yet every scenario covering it passed when the model declared it;
 * - `fallback`: not declared (and not shown to work): the session takes the documented fallback.
 */
export type CapabilityStatus = 'proven' | 'failing' | 'unproven' | 'could_declare' | 'fallback';

/** One capability in a {@link ConformanceReport}. */
export interface CapabilityVerdict {
  readonly capability: RealtimeCapability;
  readonly declared: boolean;
  readonly status: CapabilityStatus;
  /** The scenarios the verdict rests on: those that ran (declared) or were probed (not declared). */
  readonly scenarios: readonly string[];
  /** For `failing` and `fallback`: the first scenario that failed and why. */
  readonly reason?: string;
}

/** Everything a conformance run found for one adapter. */
export interface ConformanceReport {
  /** The name the run was given (e.g. `azure (legacy)`), else the provider's name. */
  readonly name: string;
  readonly provider: string;
  readonly declared: Readonly<RealtimeCapabilities>;
  /** Each scenario of the suite, in order. */
  readonly results: readonly ScenarioResult[];
  /** Each capability, in the order the model lists them. */
  readonly capabilities: readonly CapabilityVerdict[];
  /** `false` when a scenario failed or a declared capability fails its scenarios. */
  readonly ok: boolean;
}

/**
 * The scenarios of `report` its harness skipped (it could not script what they need), as opposed to those skipped for
 * a capability the model does not declare. A complete harness has none: every skip is then a capability's.
 */
export function harnessSkips(report: ConformanceReport): ScenarioResult[] {
  return report.results.filter((result) => result.status === 'skip' && result.missing === undefined);
}

const SYMBOL: Record<ScenarioResult['status'], string> = { pass: '✔', skip: '-', fail: '✘' };

/** A plain-text rendering of `report`, one line per scenario and per capability, for logs and CI output. */
export function formatReport(report: ConformanceReport): string {
  const lines = [`conformance: ${report.name} (${report.ok ? 'passed' : 'FAILED'})`];
  for (const result of report.results) {
    lines.push(`  ${SYMBOL[result.status]} ${result.scenario}${result.reason ? ` — ${result.reason}` : ''}`);
  }
  lines.push('  capabilities:');
  for (const verdict of report.capabilities) {
    lines.push(
      `    ${verdict.capability}: ${verdict.status.replace('_', ' ')}${verdict.reason ? ` — ${verdict.reason}` : ''}`,
    );
  }
  return lines.join('\n');
}
