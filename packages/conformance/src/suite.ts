import type { RealtimeCapabilities } from '@parley/core';
import { optionKeys } from '@parley/core/internal';
import { describe, test } from 'vitest';
import type { RealtimeHarnessFactory } from './harness.js';
import type { ConformanceReport } from './report.js';
import { type ConformanceOptions, judgeCapabilities } from './run.js';
import { runScenario, type ScenarioResult } from './run-scenario.js';
import { withDefaults } from './scenario.js';
import { realtimeScenarios } from './scenarios/index.js';

/** Options of {@link defineConformanceSuite}. */
export interface ConformanceSuiteOptions extends Omit<ConformanceOptions, 'name' | 'onResult'> {
  /** Called with the whole report once the suite's last test ran (e.g. to compare it with a committed page). */
  onReport?: (report: ConformanceReport) => void | Promise<void>;
}

const SUITE_OPTIONS = optionKeys<ConformanceSuiteOptions>('ConformanceSuiteOptions', {
  scenarios: true,
  timeoutMs: true,
  probeUndeclared: true,
  onReport: true,
});

/**
 * Registers the conformance suite with vitest, on top of {@link runScenario} and the same capability verdicts as
 * `runConformance`: one test per scenario (skipped, with the reason, when the model does not declare what it
 * needs), then a `capability honesty` test that fails when a declared capability fails its scenarios and annotates
 * the capabilities the model could declare. An adapter's conformance test file is one line:
 * `defineConformanceSuite('openai', () => createOpenAIHarness())`.
 */
export function defineConformanceSuite(
  name: string,
  createHarness: RealtimeHarnessFactory,
  options: ConformanceSuiteOptions = {},
): void {
  SUITE_OPTIONS.check(options);
  const scenarios = options.scenarios ?? realtimeScenarios;
  const timeoutMs = options.timeoutMs ?? 15_000;
  describe(`realtime conformance: ${name}`, () => {
    const results: ScenarioResult[] = [];
    let declared: Readonly<RealtimeCapabilities> | undefined;
    let provider = name;
    for (const scenario of scenarios) {
      test(
        scenario.name,
        async (context) => {
          const result = await runScenario(
            scenario,
            async () => {
              const harness = await createHarness();
              declared ??= withDefaults(harness.model.capabilities);
              provider = harness.model.provider;
              return harness;
            },
            { timeoutMs },
          );
          results.push(result);
          if (result.status === 'skip') context.skip(result.reason);
          if (result.status === 'fail') throw result.error ?? new Error(result.reason);
        },
        timeoutMs + 5_000,
      );
    }
    test(
      'capability honesty: declared capabilities pass their scenarios; undeclared ones are probed',
      async (context) => {
        if (declared === undefined) context.skip('no scenario ran');
        const capabilities = declared as Readonly<RealtimeCapabilities>;
        const verdicts = await judgeCapabilities(
          capabilities,
          scenarios,
          results,
          options.probeUndeclared === false
            ? undefined
            : (scenario, capability) =>
                runScenario(scenario, createHarness, { timeoutMs, declare: [capability] }),
        );
        for (const verdict of verdicts) {
          if (verdict.status === 'could_declare') {
            await context.annotate(
              `${verdict.capability} is not declared, yet its scenarios pass with it declared: it could be declared.`,
            );
          }
        }
        const report: ConformanceReport = {
          name,
          provider,
          declared: capabilities,
          results,
          capabilities: verdicts,
          ok: results.every((r) => r.status !== 'fail') && verdicts.every((v) => v.status !== 'failing'),
        };
        await options.onReport?.(report);
        const failing = verdicts.filter((v) => v.status === 'failing');
        if (failing.length > 0) {
          throw new Error(
            `Declared capabilities fail their scenarios: ${failing.map((v) => `${v.capability} (${v.reason})`).join('; ')}. ` +
              'Fix the adapter or declare them false.',
          );
        }
      },
      (timeoutMs + 5_000) * 4,
    );
  });
}
