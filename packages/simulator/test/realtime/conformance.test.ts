import { defineConformanceSuite, type RealtimeHarness } from '@parley/conformance';
import { OpenAIRealtimeModel } from '@parley/openai';
import { createSimulatorHarness } from '@parley/simulator';

defineConformanceSuite(
  'openai',
  async (): Promise<RealtimeHarness> =>
    createSimulatorHarness({
      createModel: (simulator, transport) =>
        new OpenAIRealtimeModel({ apiKey: 'sk-conformance', url: simulator.url, ...transport }),
    }),
);
