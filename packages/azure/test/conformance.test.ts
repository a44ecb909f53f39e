import { AzureOpenAILiveModel } from '@parley/azure';
import { type ConformanceReport, defineConformanceSuite, harnessSkips } from '@parley/conformance';
import { createLiveSimulatorHarness } from '@parley/simulator';
import { expect } from 'vitest';
import { AZURE_KEY, createAzureHarness, LEGACY_API_VERSION } from './harness.js';

/** Every skip is for a capability Azure does not declare: the harness scripts every scenario. */
const noHarnessSkips = {
  onReport: (report: ConformanceReport) => expect(harnessSkips(report).map((r) => r.scenario)).toEqual([]),
};

defineConformanceSuite('azure (GA)', () => createAzureHarness(), noHarnessSkips);
defineConformanceSuite(
  'azure (legacy preview, beta dialect)',
  () => createAzureHarness({ apiVersion: LEGACY_API_VERSION }),
  noHarnessSkips,
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
