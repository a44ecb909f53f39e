import { describe, test } from 'vitest';
import type { RealtimeHarnessFactory } from './harness.js';
import { type ConformanceScenario, missingCapabilities } from './scenario.js';
import { realtimeScenarios } from './scenarios/index.js';

/** Options of {@link defineConformanceSuite}. */
export interface ConformanceSuiteOptions {
  /** Run these scenarios instead of all of {@link realtimeScenarios}. */
  scenarios?: readonly ConformanceScenario[];
  /** Per-scenario timeout in milliseconds. Default 15 000. */
  timeoutMs?: number;
}

/**
 * Registers one vitest test per scenario for an adapter, so an adapter's conformance test file is one
 * line: `defineConformanceSuite('openai', () => createOpenAIHarness())`. Each test creates a fresh
 * harness, skips itself (saying which capabilities are missing) when the model does not declare what
 * the scenario needs, runs the scenario, and always disposes the harness.
 */
export function defineConformanceSuite(
  name: string,
  createHarness: RealtimeHarnessFactory,
  options: ConformanceSuiteOptions = {},
): void {
  describe(`realtime conformance: ${name}`, () => {
    for (const scenario of options.scenarios ?? realtimeScenarios) {
      test(
        scenario.name,
        async (context) => {
          const harness = await createHarness();
          try {
            const missing = missingCapabilities(scenario, harness);
            if (missing.length > 0) {
              context.skip(
                `needs ${missing.join(', ')}, which provider "${harness.model.provider}" does not declare`,
              );
            }
            await scenario.run(harness);
          } finally {
            await harness.dispose();
          }
        },
        options.timeoutMs ?? 15_000,
      );
    }
  });
}
