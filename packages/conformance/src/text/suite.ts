import { optionKeys } from '@parley/core/internal';
import { describe, test } from 'vitest';
import type { TextModelHarnessFactory } from './harness.js';
import { runTextScenario } from './run.js';
import type { TextConformanceScenario } from './scenario.js';
import { textModelScenarios } from './scenarios.js';

/** Options of {@link defineTextConformanceSuite}. */
export interface TextConformanceSuiteOptions {
  /** Run these scenarios instead of all of {@link textModelScenarios}. */
  scenarios?: readonly TextConformanceScenario[];
  /** Per-scenario timeout in milliseconds. Default 15 000. */
  timeoutMs?: number;
}

const SUITE_OPTIONS = optionKeys<TextConformanceSuiteOptions>('TextConformanceSuiteOptions', {
  scenarios: true,
  timeoutMs: true,
});

/**
 * Registers the text conformance scenarios with vitest, one test per scenario (skipped, with the reason, where the
 * model does not declare what it needs). A text model's conformance test file is one line:
 * `defineTextConformanceSuite('my-provider', () => createMyTextHarness())`.
 */
export function defineTextConformanceSuite(
  name: string,
  createHarness: TextModelHarnessFactory,
  options: TextConformanceSuiteOptions = {},
): void {
  SUITE_OPTIONS.check(options);
  const timeoutMs = options.timeoutMs ?? 15_000;
  describe(`text model conformance: ${name}`, () => {
    for (const scenario of options.scenarios ?? textModelScenarios) {
      test(
        scenario.name,
        async (context) => {
          const result = await runTextScenario(scenario, createHarness, { timeoutMs });
          if (result.status === 'skip') context.skip(result.reason);
          if (result.status === 'fail') throw result.error ?? new Error(result.reason);
        },
        timeoutMs + 5_000,
      );
    }
  });
}
