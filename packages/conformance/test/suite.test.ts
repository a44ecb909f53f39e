import {
  type ConformanceScenario,
  defineConformanceSuite,
  missingCapabilities,
  type RealtimeHarness,
  realtimeScenarios,
} from '@parley/conformance';
import { REALTIME_SPECIFICATION_VERSION, type RealtimeCapabilities, UnknownOptionError } from '@parley/core';
import { expect, test } from 'vitest';

const none: RealtimeCapabilities = {
  ephemeralResponse: false,
  messageTruncation: false,
  mutableChatContext: false,
  turnDetection: false,
  userTranscription: false,
  audioOutput: false,
  mutableInstructions: false,
  mutableTools: false,
  autoToolReplyGeneration: false,
};

/** A harness whose backend is never driven: these tests check the kit's own bookkeeping. */
function inertHarness(capabilities: Partial<RealtimeCapabilities>, log: string[]): RealtimeHarness {
  const fail = async (): Promise<never> => {
    throw new Error('not used by these scenarios');
  };
  return {
    model: {
      specificationVersion: REALTIME_SPECIFICATION_VERSION,
      provider: 'inert',
      capabilities: { ...none, ...capabilities },
      connect: fail,
    },
    respondWith: fail,
    finishResponse: fail,
    userStartsSpeaking: fail,
    userStopsSpeaking: fail,
    emitError: fail,
    refuseNextResponse: fail,
    disconnect: fail,
    commands: async () => [],
    waitForCommand: fail,
    sessionConfig: fail,
    conversation: fail,
    waitForClientClose: fail,
    dispose: async () => {
      log.push('dispose');
    },
  };
}

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
    for (const capability of scenario.requires) expect(Object.keys(none)).toContain(capability);
  }
  expect(names.length).toBeGreaterThanOrEqual(8);
});

test('an unknown suite option is an UnknownOptionError naming the nearest key, before any test is registered', () => {
  const register = () =>
    defineConformanceSuite('typo', async () => inertHarness({}, []), { timeout: 5 } as never);
  expect(register).toThrow(UnknownOptionError);
  expect(register).toThrow("Unknown option 'timeout' in ConformanceSuiteOptions. Did you mean 'timeoutMs'?");
});
