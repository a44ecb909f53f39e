import { AzureOpenAILiveModel } from '@parley/azure';
import { defineConformanceSuite } from '@parley/conformance';
import { createLiveSimulatorHarness } from '@parley/simulator';
import { AZURE_KEY, createAzureHarness, LEGACY_API_VERSION } from './harness.js';

defineConformanceSuite('azure (GA)', () => createAzureHarness());
defineConformanceSuite('azure (legacy preview, beta dialect)', () =>
  createAzureHarness({ apiVersion: LEGACY_API_VERSION }),
);
defineConformanceSuite('azure live (GPT-Live on Foundry)', () =>
  createLiveSimulatorHarness({
    simulator: { azure: true, apiKeys: [AZURE_KEY] },
    createModel: (simulator, transport) =>
      new AzureOpenAILiveModel({
        endpoint: `http://127.0.0.1:${simulator.port}`,
        deployment: 'gpt-live',
        apiKey: AZURE_KEY,
        ...transport,
      }),
  }),
);
