import { AbortError, Agent, ParleyError, Runner, tool } from '@parley/core';
import { expect } from 'vitest';
import { z } from 'zod';
import type { TextConformanceScenario } from './scenario.js';

function weatherTool(cities: string[]) {
  return tool({
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      cities.push(city);
      return `Sunny in ${city}`;
    },
  });
}

async function textDeltas(agent: Agent, input: string) {
  const result = await new Runner().run(agent, input, { stream: true });
  const events: string[] = [];
  let text = '';
  for await (const event of result) {
    if (event.type !== 'raw_model_event') continue;
    events.push(event.data.type);
    if (event.data.type === 'text_delta') text += event.data.delta;
  }
  await result.completed;
  return { result, events, text };
}

/** A plain answer: the final output, one request counted with the backend's tokens, instructions and input sent. */
export const textAnswerScenario: TextConformanceScenario = {
  name: 'a text answer: final output, usage of one request, instructions and input as sent',
  requires: [],
  async run(harness) {
    await harness.respondWith({
      output: [{ type: 'message', text: 'Hello! How can I help?' }],
      usage: { inputTokens: 21, outputTokens: 7 },
    });
    const agent = new Agent({ name: 'Greeter', instructions: 'Be kind.', model: harness.model });
    const result = await new Runner().run(agent, 'Hi there');
    expect(result.finalOutput).toBe('Hello! How can I help?');
    expect(result.usage).toMatchObject({ requests: 1, inputTokens: 21, outputTokens: 7, totalTokens: 28 });
    const [request] = await harness.requests();
    expect(request).toEqual({
      instructions: 'Be kind.',
      input: [{ type: 'message', role: 'user', content: 'Hi there' }],
      tools: [],
      outputSchema: false,
      streamed: false,
    });
  },
};

/** The conversation goes back in order on the next turn: earlier user and assistant messages included. */
export const textHistoryScenario: TextConformanceScenario = {
  name: 'a second turn sends the whole conversation in order',
  requires: [],
  async run(harness) {
    await harness.respondWith({ output: [{ type: 'message', text: 'Nice to meet you, Ada.' }] });
    await harness.respondWith({ output: [{ type: 'message', text: 'Your name is Ada.' }] });
    const agent = new Agent({ name: 'Memory', model: harness.model });
    const runner = new Runner();
    const first = await runner.run(agent, 'I am Ada.');
    const second = await runner.run(agent, [
      ...first.history,
      { type: 'message', role: 'user', content: 'Who am I?' },
    ]);
    expect(second.finalOutput).toBe('Your name is Ada.');
    const requests = await harness.requests();
    expect(requests[1]?.input).toEqual([
      { type: 'message', role: 'user', content: 'I am Ada.' },
      { type: 'message', role: 'assistant', content: 'Nice to meet you, Ada.' },
      { type: 'message', role: 'user', content: 'Who am I?' },
    ]);
    expect(requests[1]?.instructions).toBeUndefined();
  },
};

/** A streamed answer: `response_started` first, deltas that add up to the final text, `response_done` last. */
export const textStreamedTextScenario: TextConformanceScenario = {
  name: 'a streamed answer: response_started, text deltas that add up to the answer, response_done last',
  requires: ['streaming'],
  async run(harness) {
    await harness.respondWith({ output: [{ type: 'message', text: 'The quick brown fox jumps.' }] });
    const agent = new Agent({ name: 'Streamer', model: harness.model });
    const { result, events, text } = await textDeltas(agent, 'Say something');
    expect(text).toBe('The quick brown fox jumps.');
    expect(result.finalOutput).toBe('The quick brown fox jumps.');
    expect(events[0]).toBe('response_started');
    expect(events.at(-1)).toBe('response_done');
    expect(events.filter((e) => e === 'text_delta').length).toBeGreaterThan(1);
    expect(events.filter((e) => e === 'response_done')).toHaveLength(1);
    expect((await harness.requests())[0]?.streamed).toBe(true);
  },
};

/** One function call: the tool runs once with its arguments, its output goes back with the call, the answer follows. */
export const textToolRoundTripScenario: TextConformanceScenario = {
  name: 'a tool call: the tool runs, the call and its output go back, the answer follows',
  requires: ['tools'],
  async run(harness) {
    const cities: string[] = [];
    await harness.respondWith(
      { output: [{ type: 'function_call', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { output: [{ type: 'message', text: 'It is sunny in Paris.' }] },
    );
    const agent = new Agent({ name: 'Forecaster', tools: [weatherTool(cities)], model: harness.model });
    const result = await new Runner().run(agent, 'Weather in Paris?');
    expect(result.finalOutput).toBe('It is sunny in Paris.');
    expect(cities).toEqual(['Paris']);
    const [first, second] = await harness.requests();
    expect(first?.tools).toEqual(['get_weather']);
    const call = second?.input.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather' });
    expect(call?.type === 'function_call' && JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    const callId = call?.type === 'function_call' ? call.callId : undefined;
    expect(second?.input.at(-1)).toEqual({ type: 'function_call_output', callId, output: 'Sunny in Paris' });
  },
};

/** Two calls in one response: both run, both outputs go back after both calls, in order. */
export const textParallelToolCallsScenario: TextConformanceScenario = {
  name: 'two tool calls in one response: both run and both outputs go back, in order',
  requires: ['tools', 'parallelToolCalls'],
  async run(harness) {
    const cities: string[] = [];
    await harness.respondWith(
      {
        output: [
          { type: 'function_call', name: 'get_weather', arguments: { city: 'Rome' } },
          { type: 'function_call', name: 'get_weather', arguments: { city: 'Oslo' } },
        ],
      },
      { output: [{ type: 'message', text: 'Sunny in both.' }] },
    );
    const agent = new Agent({ name: 'Forecaster', tools: [weatherTool(cities)], model: harness.model });
    const result = await new Runner().run(agent, 'Rome and Oslo?');
    expect(result.finalOutput).toBe('Sunny in both.');
    expect([...cities].sort()).toEqual(['Oslo', 'Rome']);
    const second = (await harness.requests())[1];
    const kinds = second?.input.slice(1).map((item) => item.type);
    expect(kinds).toEqual(['function_call', 'function_call', 'function_call_output', 'function_call_output']);
    const calls = second?.input.filter((item) => item.type === 'function_call') ?? [];
    const outputs = second?.input.filter((item) => item.type === 'function_call_output') ?? [];
    expect(outputs.map((o) => o.type === 'function_call_output' && o.callId)).toEqual(
      calls.map((c) => c.type === 'function_call' && c.callId),
    );
    expect(new Set(outputs.map((o) => o.type === 'function_call_output' && o.callId)).size).toBe(2);
    expect(outputs.map((o) => o.type === 'function_call_output' && o.output)).toEqual([
      'Sunny in Rome',
      'Sunny in Oslo',
    ]);
  },
};

/** A streamed run with a tool call in between: the call runs and the streamed answer follows. */
export const textStreamedToolCallScenario: TextConformanceScenario = {
  name: 'a streamed run with a tool call: the call runs, the streamed answer follows',
  requires: ['streaming', 'tools'],
  async run(harness) {
    const cities: string[] = [];
    await harness.respondWith(
      { output: [{ type: 'function_call', name: 'get_weather', arguments: { city: 'Bern' } }] },
      { output: [{ type: 'message', text: 'Sunny in Bern today.' }] },
    );
    const agent = new Agent({ name: 'Forecaster', tools: [weatherTool(cities)], model: harness.model });
    const { result, events, text } = await textDeltas(agent, 'Bern?');
    expect(cities).toEqual(['Bern']);
    expect(text).toBe('Sunny in Bern today.');
    expect(result.finalOutput).toBe('Sunny in Bern today.');
    expect(events.filter((e) => e === 'response_done')).toHaveLength(2);
  },
};

/** Structured output: the schema is sent, and the answer is parsed into the output type. */
export const textStructuredOutputScenario: TextConformanceScenario = {
  name: 'structured output: the schema is sent and the answer parsed into the output type',
  requires: ['structuredOutput'],
  async run(harness) {
    await harness.respondWith({ output: [{ type: 'message', text: '{"city":"Lyon","celsius":21}' }] });
    const agent = new Agent({
      name: 'Extractor',
      model: harness.model,
      outputType: z.object({ city: z.string(), celsius: z.number() }),
    });
    const result = await new Runner().run(agent, 'Lyon is at 21 degrees.');
    expect(result.finalOutput).toEqual({ city: 'Lyon', celsius: 21 });
    expect((await harness.requests())[0]?.outputSchema).toBe(true);
  },
};

/** A provider failure rejects the run with a typed Parley error that names the provider's message. */
export const textProviderErrorScenario: TextConformanceScenario = {
  name: 'a provider error rejects the run with a typed error carrying its code (and status)',
  requires: [],
  async run(harness) {
    await harness.respondWith({ error: { status: 400, message: 'Invalid value for temperature.' } });
    const agent = new Agent({ name: 'A', model: harness.model });
    const error = await new Runner().run(agent, 'hi').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParleyError);
    expect((error as ParleyError).code).toMatch(/\S/);
    expect((error as Error).message).toContain('Invalid value for temperature.');
    const status = (error as { status?: unknown }).status;
    if (status !== undefined) expect(status).toBe(400);
    expect(await harness.requests()).toHaveLength(1);
  },
};

/** Aborting a run whose model call hangs ends it at once with an `AbortError`, streamed or not. */
export const textAbortScenario: TextConformanceScenario = {
  name: 'an aborted run ends at once with an AbortError while the model call hangs (streamed or not)',
  requires: [],
  async run(harness) {
    const agent = new Agent({ name: 'A', model: harness.model });
    for (const stream of [false, true]) {
      if (stream && !harness.model.capabilities.streaming) continue;
      await harness.respondWith({ hang: true });
      const controller = new AbortController();
      const run = stream
        ? new Runner().run(agent, 'hi', { stream: true, signal: controller.signal }).then(async (result) => {
            for await (const _ of result) {
              // drained until the abort ends the stream
            }
            return result.completed;
          })
        : new Runner().run(agent, 'hi', { signal: controller.signal });
      const outcome = run.then(
        () => 'resolved',
        (error: unknown) => error,
      );
      // The call reached the backend (I/O turns, no wall-clock wait).
      for (let i = 0; i < 5000 && (await harness.requests()).length < (stream ? 2 : 1); i++) {
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      controller.abort(new Error('the user left'));
      const error = await outcome;
      expect(error, stream ? 'the streamed run' : 'the run').toBeInstanceOf(AbortError);
      expect((error as AbortError).code).toBe('aborted');
    }
  },
};

/** Every text conformance scenario, in the order they run. */
export const textModelScenarios: readonly TextConformanceScenario[] = [
  textAnswerScenario,
  textHistoryScenario,
  textStreamedTextScenario,
  textToolRoundTripScenario,
  textParallelToolCallsScenario,
  textStreamedToolCallScenario,
  textStructuredOutputScenario,
  textProviderErrorScenario,
  textAbortScenario,
];
