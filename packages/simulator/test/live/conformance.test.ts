import { defineConformanceSuite, harnessSkips, type RealtimeHarness } from '@parley/conformance';
import { OpenAILiveModel } from '@parley/openai';
import { createLiveSimulatorHarness } from '@parley/simulator';
import { expect } from 'vitest';

defineConformanceSuite(
  'openai live (client delegation)',
  async (): Promise<RealtimeHarness> =>
    createLiveSimulatorHarness({
      createModel: (simulator, transport) =>
        new OpenAILiveModel({ apiKey: 'sk-conformance', url: simulator.url, ...transport }),
    }),
  // Every skip is for a capability GPT-Live does not declare: the harness scripts every scenario it can meet.
  { onReport: (report) => expect(harnessSkips(report).map((r) => r.scenario)).toEqual([]) },
);
