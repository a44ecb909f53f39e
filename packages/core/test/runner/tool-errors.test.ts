/**
 * A failing tool's error text stays with the app: the model gets a generic failure, the app gets the error
 * (the tool_done hook, the warn log line, the tool's span), and forwarding the text is an opt-in.
 */
import { Agent, configureLogging, type LogSink, RunHooks, Runner, run, tool } from '@parley/core';
import { MockModel } from '@parley/mock';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing } from '../tracing/spans.js';
import { bothWays } from './both-ways.js';

const SECRET = 'password=hunter2';
const failure = new Error(`database unreachable at 10.0.0.7 (${SECRET})`);

function failingAgent(model: MockModel) {
  const lookup = tool({
    name: 'lookup',
    description: 'Looks up a record',
    parameters: z.object({}),
    execute: () => {
      throw failure;
    },
  });
  return new Agent({ name: 'A', tools: [lookup], model });
}

const sentOutputs = (model: MockModel) =>
  model.requests.flatMap((request) =>
    request.input.flatMap((item) => (item.type === 'function_call_output' ? [item.output] : [])),
  );

let tracing: ReturnType<typeof memoryTracing> | undefined;
afterEach(() => {
  configureLogging();
  tracing?.close();
  tracing = undefined;
});

describe('a failing tool', () => {
  test('the model gets a generic failure, never the error text; the app gets the error in tool_done', async () => {
    await bothWays(async (h) => {
      const model = h.model([MockModel.toolCall('lookup', {}, { callId: 'c1' }), MockModel.text('sorry')]);
      const hooks = new RunHooks();
      const done: unknown[] = [];
      hooks.on('tool_done', ({ result }) => {
        done.push(result.status === 'failed' ? result.error : result.status);
      });
      const result = await h.run(failingAgent(model), 'look it up', { hooks });
      expect(result.finalOutput).toBe('sorry');
      const [sent] = sentOutputs(model);
      expect(sent).toBe('An error occurred while running the tool. Please try again.');
      expect(JSON.stringify(model.requests)).not.toContain('hunter2');
      expect(JSON.stringify(result.history)).not.toContain('hunter2');
      expect(done).toEqual([failure]);
    });
  });

  test('the warn log line and the tool span carry the error for the developer', async () => {
    const lines: { level: string; args: unknown[] }[] = [];
    const at =
      (level: keyof LogSink) =>
      (...args: unknown[]) =>
        lines.push({ level, args });
    configureLogging({
      level: 'warn',
      sink: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    });
    tracing = memoryTracing();
    const model = new MockModel([
      MockModel.toolCall('lookup', {}, { callId: 'c1' }),
      MockModel.text('sorry'),
    ]);
    await run(failingAgent(model), 'look it up');
    const warned = lines.filter((line) => line.level === 'warn');
    expect(warned).toHaveLength(1);
    expect(warned[0]?.args[1]).toMatchObject({
      event: 'tool_failed',
      tool: 'lookup',
      error: failure.message,
    });
    const [span] = tracing.named('execute_tool lookup');
    expect(span?.status).toMatchObject({ code: 2, message: failure.message });
    expect(span?.attributes['error.type']).toBe('Error');
  });

  test('a toolErrorFormatter opts in to forwarding the text', async () => {
    await bothWays(async (h) => {
      const model = h.model([MockModel.toolCall('lookup', {}, { callId: 'c1' }), MockModel.text('sorry')]);
      const runner = new Runner({
        toolErrorFormatter: ({ error }) => (error instanceof Error ? `Error: ${error.message}` : undefined),
      });
      await h.run(failingAgent(model), 'look it up', {}, runner);
      expect(sentOutputs(model)).toEqual([`Error: ${failure.message}`]);
    });
  });
});
