import {
  type ConformanceScenario,
  defineConformanceSuite,
  missingCapabilities,
  realtimeScenarios,
} from '@parley/conformance';
import { UnknownOptionError } from '@parley/core';
import { expect, test } from 'vitest';
import { inertHarness, NO_CAPABILITIES } from './inert-harness.js';

const log: string[] = [];
const needsTruncation: ConformanceScenario = {
  name: 'needs truncation',
  requires: ['messageTruncation'],
  run: async () => {
    log.push('ran truncation scenario');
  },
};
const needsNothing: ConformanceScenario = {
  name: 'needs nothing',
  requires: [],
  run: async () => {
    log.push('ran plain scenario');
  },
};

defineConformanceSuite('inert', () => inertHarness({ audioOutput: true }, log), {
  scenarios: [needsTruncation, needsNothing],
});

test('the suite skipped the scenario needing an undeclared capability, ran the other, probed the undeclared capability, and disposed every harness', () => {
  expect(log).toEqual(['dispose', 'ran plain scenario', 'dispose', 'ran truncation scenario', 'dispose']);
});

test('missingCapabilities names what a scenario needs and the model does not declare', () => {
  const harness = inertHarness({ mutableTools: true }, []);
  expect(
    missingCapabilities(
      { name: 'x', requires: ['mutableTools', 'mutableInstructions'], run: async () => {} },
      harness,
    ),
  ).toEqual(['mutableInstructions']);
});

test('the built-in scenarios have unique names and declare only known capabilities', () => {
  const names = realtimeScenarios.map((s) => s.name);
  expect(new Set(names).size).toBe(names.length);
  for (const scenario of realtimeScenarios) {
    for (const capability of scenario.requires) expect(Object.keys(NO_CAPABILITIES)).toContain(capability);
  }
  expect(names.length).toBeGreaterThanOrEqual(8);
});

test('an unknown suite option is an UnknownOptionError naming the nearest key, before any test is registered', () => {
  const register = () =>
    defineConformanceSuite('typo', async () => inertHarness({}, []), { timeout: 5 } as never);
  expect(register).toThrow(UnknownOptionError);
  expect(register).toThrow("Unknown option 'timeout' in ConformanceSuiteOptions. Did you mean 'timeoutMs'?");
});
