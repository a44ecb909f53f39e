import { defineConformanceSuite, harnessSkips, type RealtimeHarness } from '@parley/conformance';
import { ManualClock } from '@parley/mock';
import { OpenAIRealtimeModel } from '@parley/openai';
import { createSimulatorHarness } from '@parley/simulator';
import { expect } from 'vitest';

defineConformanceSuite(
  'openai',
  async (): Promise<RealtimeHarness> =>
    createSimulatorHarness({
      sessionClock: new ManualClock(),
      createModel: (simulator, transport) =>
        new OpenAIRealtimeModel({ apiKey: 'sk-conformance', url: simulator.url, ...transport }),
    }),
  // Every skip is for a capability OpenAI Realtime does not declare: the harness scripts every scenario.
  { onReport: (report) => expect(harnessSkips(report).map((r) => r.scenario)).toEqual([]) },
);
