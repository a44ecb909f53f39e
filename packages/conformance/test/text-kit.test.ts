import {
  formatTextReport,
  runTextConformance,
  type TextHarnessRequest,
  type TextHarnessResponse,
  type TextModelHarness,
  textAnswerScenario,
  textModelScenarios,
  textStructuredOutputScenario,
} from '@parley/conformance';
import { MODEL_SPECIFICATION_VERSION, type Model, type ModelCapabilities } from '@parley/core';
import { expect, test } from 'vitest';

/** A hand-written text model over a queue; `say` replaces what it answers (a broken model). */
function queueHarness(
  capabilities: Partial<ModelCapabilities>,
  log: string[],
  say?: string,
): TextModelHarness {
  const queue: TextHarnessResponse[] = [];
  const requests: TextHarnessRequest[] = [];
  const model: Model = {
    specificationVersion: MODEL_SPECIFICATION_VERSION,
    provider: 'queue',
    capabilities: {
      streaming: false,
      tools: false,
      structuredOutput: false,
      parallelToolCalls: false,
      ...capabilities,
    },
    async getResponse(request) {
      requests.push({
        ...(request.systemInstructions !== undefined && { instructions: request.systemInstructions }),
        input: request.input,
        tools: request.tools.map((t) => t.name),
        outputSchema: request.outputSchema !== undefined,
        streamed: false,
      });
      const next = queue.shift();
      const text = next && 'output' in next && next.output[0]?.type === 'message' ? next.output[0].text : '';
      const usage = next && 'output' in next ? next.usage : undefined;
      return {
        output: [{ type: 'message', role: 'assistant', content: say ?? text }],
        usage: {
          requests: 1,
          inputTokens: usage?.inputTokens ?? 0,
          outputTokens: usage?.outputTokens ?? 0,
          totalTokens: (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0),
        },
      };
    },
    streamResponse() {
      throw new Error('not streaming');
    },
  };
  return {
    model,
    respondWith: (...responses) => void queue.push(...responses),
    requests: () => requests,
    dispose: () => void log.push('dispose'),
  };
}

test('the text report: a scenario whose capability is not declared is skipped with the reason; each harness disposed', async () => {
  const log: string[] = [];
  const report = await runTextConformance(() => queueHarness({}, log), {
    scenarios: [textAnswerScenario, textStructuredOutputScenario],
  });
  expect(report.ok).toBe(true);
  expect(report.provider).toBe('queue');
  expect(report.results.map((r) => [r.status, r.reason])).toEqual([
    ['pass', undefined],
    ['skip', 'needs structuredOutput, which provider "queue" does not declare'],
  ]);
  expect(log).toEqual(['dispose', 'dispose', 'dispose']);
});

test('a model that answers something else fails the run, and the report says how', async () => {
  const report = await runTextConformance(() => queueHarness({}, [], 'nope'), {
    name: 'broken',
    scenarios: [textAnswerScenario],
  });
  expect(report.ok).toBe(false);
  expect(report.results[0]?.status).toBe('fail');
  expect(formatTextReport(report)).toMatch(
    /^text conformance: broken \(FAILED\)\n {2}✘ a text answer: .* — expected 'nope' to be 'Hello! How can I help\?'/,
  );
});

test('the scenario list covers every text model capability', () => {
  const covered = new Set(textModelScenarios.flatMap((s) => s.requires));
  expect([...covered].sort()).toEqual(['parallelToolCalls', 'streaming', 'structuredOutput', 'tools']);
});
