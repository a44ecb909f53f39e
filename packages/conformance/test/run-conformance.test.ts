import {
  type ConformanceScenario,
  formatReport,
  harnessSkips,
  runConformance,
  ScenarioSkippedError,
} from '@parley/conformance';
import { type RealtimeCapabilities, UnknownOptionError } from '@parley/core';
import { afterEach, expect, test, vi } from 'vitest';
import { inertHarness } from './inert-harness.js';

/** A scenario that passes exactly when the model declares `works`. */
function scenario(
  name: string,
  requires: ConformanceScenario['requires'],
  works: (capabilities: RealtimeCapabilities) => boolean,
  log: string[],
  exercises?: ConformanceScenario['exercises'],
): ConformanceScenario {
  return {
    name,
    requires,
    ...(exercises && { exercises }),
    run: async (harness) => {
      log.push(`run ${name}`);
      if (!works(harness.model.capabilities)) throw new Error(`${name} went wrong`);
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

test('a report says which scenarios passed, were skipped (naming the missing capability) or failed (with the reason)', async () => {
  const log: string[] = [];
  const report = await runConformance(() => inertHarness({ audioOutput: true }, log), {
    name: 'inert run',
    probeUndeclared: false,
    scenarios: [
      scenario('plain', [], () => true, log),
      scenario('needs truncation', ['messageTruncation'], () => true, log),
      scenario('broken', [], () => false, log),
    ],
  });
  expect(report.name).toBe('inert run');
  expect(report.provider).toBe('inert');
  expect(report.results.map((r) => [r.scenario, r.status, r.reason])).toEqual([
    ['plain', 'pass', undefined],
    ['needs truncation', 'skip', 'needs messageTruncation, which provider "inert" does not declare'],
    ['broken', 'fail', 'broken went wrong'],
  ]);
  expect(report.ok).toBe(false);
  // One harness to read the declaration, then one per scenario: all disposed.
  expect(log.filter((l) => l === 'dispose')).toHaveLength(4);
  expect(formatReport(report)).toContain('✘ broken — broken went wrong');
});

test('a scenario whose harness cannot script it reports itself skipped, with its reason; the capability is not failing', async () => {
  const log: string[] = [];
  const report = await runConformance(() => inertHarness({ userTranscription: true }, log), {
    probeUndeclared: false,
    scenarios: [
      {
        name: 'unscriptable',
        requires: ['userTranscription'],
        run: async () => {
          throw new ScenarioSkippedError('the harness cannot cut a connection mid-transcription');
        },
      },
    ],
  });
  expect(report.results.map((r) => [r.scenario, r.status, r.reason])).toEqual([
    ['unscriptable', 'skip', 'the harness cannot cut a connection mid-transcription'],
  ]);
  expect(report.capabilities.find((v) => v.capability === 'userTranscription')?.status).not.toBe('failing');
  expect(report.ok).toBe(true);
  expect(log.filter((l) => l === 'dispose')).toHaveLength(2);
});

test('harnessSkips lists the skips of a harness that cannot script a scenario, not those for a missing capability', async () => {
  const report = await runConformance(() => inertHarness({ userTranscription: true }, []), {
    probeUndeclared: false,
    scenarios: [
      scenario('needs truncation', ['messageTruncation'], () => true, []),
      {
        name: 'nothing answers',
        requires: [],
        run: async () => {
          throw new ScenarioSkippedError('nothing answers a commit', {
            missing: ['commitStartsResponse', 'responseRequests'],
          });
        },
      },
      {
        name: 'unscriptable',
        requires: ['userTranscription'],
        run: async () => {
          throw new ScenarioSkippedError('the harness cannot cut a connection mid-transcription');
        },
      },
    ],
  });
  expect(report.results.map((r) => [r.scenario, r.status, r.missing])).toEqual([
    ['needs truncation', 'skip', ['messageTruncation']],
    ['nothing answers', 'skip', ['commitStartsResponse', 'responseRequests']],
    ['unscriptable', 'skip', undefined],
  ]);
  expect(harnessSkips(report).map((r) => r.scenario)).toEqual(['unscriptable']);
});

test('a declared capability whose scenario fails fails the run, even when every other scenario passes', async () => {
  const log: string[] = [];
  const report = await runConformance(() => inertHarness({ messageTruncation: true }, log), {
    probeUndeclared: false,
    scenarios: [
      scenario('plain', [], () => true, log),
      // Requires nothing, but checks truncation when it is declared: its failure is truncation's.
      scenario('interrupt', [], (c) => !c.messageTruncation, log, ['messageTruncation']),
    ],
  });
  const truncation = report.capabilities.find((v) => v.capability === 'messageTruncation');
  expect(truncation).toMatchObject({ declared: true, status: 'failing', scenarios: ['interrupt'] });
  expect(truncation?.reason).toContain('interrupt went wrong');
  expect(report.ok).toBe(false);
});

test('declared capabilities whose scenarios pass are proven; declared ones no scenario covers are unproven', async () => {
  const report = await runConformance(() => inertHarness({ audioOutput: true, mutableTools: true }, []), {
    scenarios: [scenario('speak', ['audioOutput'], () => true, [])],
  });
  expect(report.ok).toBe(true);
  const status = Object.fromEntries(report.capabilities.map((v) => [v.capability, v.status]));
  expect(status.audioOutput).toBe('proven');
  expect(status.mutableTools).toBe('unproven');
});

test('an undeclared capability whose scenarios pass once declared is reported "could declare"; one that fails is a fallback', async () => {
  const log: string[] = [];
  const report = await runConformance(() => inertHarness({}, log), {
    scenarios: [
      scenario('truncate', ['messageTruncation'], () => true, log),
      scenario('ephemeral works', ['ephemeralResponse'], () => true, log),
      scenario('ephemeral breaks', ['ephemeralResponse'], () => false, log),
      scenario('ephemeral never reached', ['ephemeralResponse'], () => true, log),
    ],
  });
  expect(report.results.every((r) => r.status === 'skip')).toBe(true);
  // The run itself is fine: probes only inform.
  expect(report.ok).toBe(true);
  const verdicts = Object.fromEntries(report.capabilities.map((v) => [v.capability, v]));
  expect(verdicts.messageTruncation).toMatchObject({
    declared: false,
    status: 'could_declare',
    scenarios: ['truncate'],
  });
  expect(verdicts.ephemeralResponse).toMatchObject({
    declared: false,
    status: 'fallback',
    scenarios: ['ephemeral works', 'ephemeral breaks'],
  });
  expect(verdicts.ephemeralResponse?.reason).toBe('ephemeral breaks: ephemeral breaks went wrong');
  // Probing stops at the first failure.
  expect(log).not.toContain('run ephemeral never reached');
  // A capability no scenario covers is a plain fallback.
  expect(verdicts.turnDetection).toMatchObject({ status: 'fallback', scenarios: [] });
});

test('a probe declares only the probed capability: a scenario needing another undeclared one stays skipped', async () => {
  const log: string[] = [];
  const report = await runConformance(() => inertHarness({}, log), {
    scenarios: [scenario('barge-in', ['audioOutput', 'turnDetection'], () => true, log)],
  });
  expect(log.filter((l) => l.startsWith('run'))).toEqual([]);
  expect(report.capabilities.every((v) => v.status === 'fallback')).toBe(true);
});

test('a scenario that never finishes fails after timeoutMs, and its harness is still disposed', async () => {
  vi.useFakeTimers();
  const log: string[] = [];
  const stuck: ConformanceScenario = { name: 'stuck', requires: [], run: () => new Promise(() => {}) };
  const running = runConformance(() => inertHarness({}, log), {
    scenarios: [stuck],
    timeoutMs: 500,
    probeUndeclared: false,
  });
  await vi.advanceTimersByTimeAsync(499);
  expect(log).toEqual(['dispose']);
  await vi.advanceTimersByTimeAsync(1);
  const report = await running;
  expect(report.results[0]).toMatchObject({
    status: 'fail',
    reason: 'the scenario did not finish within 500 ms',
  });
  expect(log).toEqual(['dispose', 'dispose']);
});

test('a harness that cannot be created, or cannot be disposed, fails the scenario instead of throwing', async () => {
  let created = 0;
  const report = await runConformance(
    () => {
      created++;
      if (created === 2) throw new Error('no backend');
      const harness = inertHarness({}, []);
      if (created === 3) harness.dispose = async () => Promise.reject(new Error('stuck socket'));
      return harness;
    },
    {
      scenarios: [scenario('a', [], () => true, []), scenario('b', [], () => true, [])],
      probeUndeclared: false,
    },
  );
  expect(report.results.map((r) => [r.status, r.reason])).toEqual([
    ['fail', 'the harness could not be created: no backend'],
    ['fail', 'the harness could not be disposed: stuck socket'],
  ]);
});

test('an unknown option is an UnknownOptionError naming the nearest key, before any harness is created', async () => {
  const log: string[] = [];
  const run = runConformance(() => inertHarness({}, log), { probeUndeclard: false } as never);
  await expect(run).rejects.toBeInstanceOf(UnknownOptionError);
  await expect(run).rejects.toThrow(
    "Unknown option 'probeUndeclard' in ConformanceOptions. Did you mean 'probeUndeclared'?",
  );
  expect(log).toEqual([]);
});
