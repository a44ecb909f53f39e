import { Agent, run, tool } from '@parley/core';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  functionCallOutput,
  makeModel,
  messageOutput,
  responseObject,
  script,
  sseResponse,
  sseText,
  textStreamEvents,
  useMockServer,
} from './helpers.js';

const server = useMockServer();

describe('OpenAIResponsesModel under the core Runner', () => {
  it('runs a tool turn and a structured final output through the Responses API', async () => {
    const recorded = script(server, [
      () =>
        HttpResponse.json(
          responseObject([functionCallOutput('call_1', 'get_weather', '{"city":"Oslo"}')], { id: 'resp_1' }),
        ),
      () => HttpResponse.json(responseObject([messageOutput('{"city":"Oslo","tempC":3}')], { id: 'resp_2' })),
    ]);
    const { model } = makeModel();
    const seen: string[] = [];
    const getWeather = tool({
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        seen.push(city);
        return { city, tempC: 3 };
      },
    });
    const agent = new Agent({
      name: 'Weather',
      instructions: 'Answer with the weather.',
      tools: [getWeather],
      outputType: z.object({ city: z.string(), tempC: z.number() }),
      model,
    });

    const result = await run(agent, 'Weather in Oslo?');

    expect(seen).toEqual(['Oslo']);
    expect(result.finalOutput).toEqual({ city: 'Oslo', tempC: 3 });
    expect(result.usage).toMatchObject({ requests: 2, inputTokens: 24, outputTokens: 10, totalTokens: 34 });
    expect(recorded).toHaveLength(2);
    const [first, second] = recorded.map((r) => r.body);
    expect(first).toMatchObject({
      model: 'gpt-test',
      instructions: 'Answer with the weather.',
      input: [{ type: 'message', role: 'user', content: 'Weather in Oslo?' }],
      tools: [{ type: 'function', name: 'get_weather', strict: false }],
      text: { format: { type: 'json_schema', name: 'final_output', strict: true } },
      store: false,
    });
    expect(second?.input).toEqual([
      { type: 'message', role: 'user', content: 'Weather in Oslo?' },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 'call_1', output: expect.stringContaining('"tempC":3') },
    ]);
  });

  it('streams a run: text deltas arrive through the Runner and the final output matches', async () => {
    const recorded = script(server, [() => sseResponse(sseText(textStreamEvents()))]);
    const { model } = makeModel();
    const agent = new Agent({ name: 'Greeter', instructions: 'Greet.', model });

    const result = await run(agent, 'Hello', { stream: true });
    const chunks: string[] = [];
    for await (const text of result.toTextStream()) chunks.push(text);
    await result.completed;

    expect(chunks).toEqual(['Hé', ' 👋', '!']);
    expect(result.finalOutput).toBe('Hé 👋!');
    expect(recorded[0]?.body.stream).toBe(true);
  });
});
