import { Agent, tool, UserError } from '@parley/core';
import { createRunContext, invokeFunctionTool } from '@parley/core/internal';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const weather = tool({
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: z.object({ city: z.string(), units: z.enum(['c', 'f']).default('c') }),
  execute: ({ city, units }) => ({ city, units, tempC: 21 }),
});
const agent = new Agent({ name: 'A', tools: [weather] });
const runContext = createRunContext({});

describe('tool()', () => {
  test('offers its zod parameters as JSON Schema, defaults not required', () => {
    expect(weather.jsonSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, units: { enum: ['c', 'f'] } },
      required: ['city'],
    });
    expect(weather.jsonSchema).not.toHaveProperty('$schema');
  });

  test('validates arguments and returns the serialized result', async () => {
    const result = await invokeFunctionTool(weather, {
      agent,
      runContext,
      call: { callId: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    });
    expect(result).toEqual({
      status: 'completed',
      output: '{"city":"Oslo","units":"c","tempC":21}',
      value: { city: 'Oslo', units: 'c', tempC: 21 },
    });
  });

  test('invalid arguments become an output the model can act on', async () => {
    const result = await invokeFunctionTool(weather, {
      agent,
      runContext,
      call: { callId: 'c1', name: 'get_weather', arguments: '{"city":5}' },
    });
    expect(result.status).toBe('invalid_arguments');
    expect(result.output).toMatch(/Invalid arguments for tool "get_weather": city: /);
  });

  test('rejects bad names with a UserError', () => {
    expect(() =>
      tool({ name: 'bad name', description: '', parameters: z.object({}), execute: () => '' }),
    ).toThrow(UserError);
  });
});
