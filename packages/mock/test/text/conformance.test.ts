import {
  defineTextConformanceSuite,
  type TextHarnessResponse,
  type TextModelHarness,
} from '@parley/conformance';
import { ParleyError } from '@parley/core';
import { ManualClock, MockModel, type MockResponse } from '@parley/mock';

/** The mock scripted directly: what the harness queues is what the model answers. */
function mockTextHarness(): TextModelHarness {
  const model = new MockModel([], { clock: new ManualClock() });
  const toEntry = (response: TextHarnessResponse): MockResponse => {
    if ('hang' in response) return { type: 'output', output: [], delayMs: Number.MAX_SAFE_INTEGER };
    if ('error' in response) return MockModel.error(new ParleyError('bad_request', response.error.message));
    return {
      type: 'output',
      output: response.output.map((item) =>
        item.type === 'message'
          ? { type: 'message', role: 'assistant', content: item.text }
          : {
              type: 'function_call',
              name: item.name,
              arguments: JSON.stringify(item.arguments),
              ...(item.callId && { callId: item.callId }),
            },
      ),
      ...(response.usage && {
        usage: { ...response.usage, totalTokens: response.usage.inputTokens + response.usage.outputTokens },
      }),
    };
  };
  return {
    model,
    respondWith: (...responses) => void model.enqueue(...responses.map(toEntry)),
    requests: () =>
      model.calls.map(({ request, streamed }) => ({
        ...(request.systemInstructions !== undefined && { instructions: request.systemInstructions }),
        input: request.input,
        tools: request.tools.map((tool) => tool.name),
        outputSchema: request.outputSchema !== undefined,
        streamed,
      })),
    dispose: () => {},
  };
}

defineTextConformanceSuite('mock', mockTextHarness);
