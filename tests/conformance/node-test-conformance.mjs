// The conformance suite under node:test, without vitest's runner: what a provider author on another runner writes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatReport, runConformance } from '@parley/conformance';
import { ManualClock } from '@parley/mock';
import { OpenAIRealtimeModel } from '@parley/openai';
import { createSimulatorHarness } from '@parley/simulator';

test('the OpenAI adapter passes the conformance suite under node:test', async () => {
  const report = await runConformance(
    () =>
      createSimulatorHarness({
        createModel: (simulator) => new OpenAIRealtimeModel({ apiKey: 'sk-node-test', url: simulator.url }),
        sessionClock: new ManualClock(),
      }),
    { probeUndeclared: false },
  );
  console.log(formatReport(report));
  assert.ok(report.ok, formatReport(report));
  assert.ok(report.results.filter((r) => r.status === 'pass').length >= 15);
});
