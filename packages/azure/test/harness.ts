import { AzureOpenAIRealtimeModel, type AzureOpenAIRealtimeModelOptions } from '@parley/azure';
import type { RealtimeHarness } from '@parley/conformance';
import { ManualClock } from '@parley/mock';
import { createSimulatorHarness } from '@parley/simulator';

export const AZURE_KEY = 'azure-test-key';
export const LEGACY_API_VERSION = '2025-04-01-preview';

/** A simulator's endpoint (Realtime or GPT-Live), as an Azure endpoint (`http://127.0.0.1:<port>`). */
export function endpointOf(simulator: { port: number }): string {
  return `http://127.0.0.1:${simulator.port}`;
}

/** A conformance harness: the Azure model against the simulator in Azure mode (GA, or legacy with `apiVersion`). */
export function createAzureHarness(
  options: Partial<AzureOpenAIRealtimeModelOptions> = {},
): Promise<RealtimeHarness> {
  return createSimulatorHarness({
    sessionClock: new ManualClock(),
    simulator: { auth: { kind: 'azure', apiKeys: [AZURE_KEY] } },
    createModel: (simulator, transport) =>
      new AzureOpenAIRealtimeModel({
        endpoint: endpointOf(simulator),
        deployment: 'gpt-realtime',
        apiKey: AZURE_KEY,
        onWarning: () => {},
        ...transport,
        ...options,
      }),
  });
}
