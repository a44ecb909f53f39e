import { defineConformanceSuite, type RealtimeHarness } from '@parley/conformance';
import { OpenAILiveModel } from '@parley/openai';
import { createLiveSimulatorHarness } from '@parley/simulator';

defineConformanceSuite(
  'openai live (client delegation)',
  async (): Promise<RealtimeHarness> =>
    createLiveSimulatorHarness({
      createModel: (simulator, transport) =>
        new OpenAILiveModel({ apiKey: 'sk-conformance', url: simulator.url, ...transport }),
    }),
);
