import { Agent, tool } from '@parley/core';
import { expect } from 'vitest';
import { z } from 'zod';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

/** One function call: validated arguments, one output, one follow-up response. */
export const toolCallScenario: ConformanceScenario = {
  name: 'one tool call: the output goes back and exactly one follow-up response answers',
  requires: ['responseRequests'],
  exercises: ['autoToolResponseGeneration'],
  async run(harness) {
    const cities: string[] = [];
    const weather = tool({
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => {
        cities.push(city);
        return { city, sky: 'sunny' };
      },
    });
    await withSession(
      harness,
      new Agent({ name: 'Forecaster', tools: [weather] }),
      async (session, events) => {
        await session.connect();
        const config = await harness.sessionConfig();
        expect(config.tools?.map((t) => t.name)).toEqual(['get_weather']);
        await harness.respondWith(
          { output: [{ type: 'function_call', name: 'get_weather', arguments: { city: 'Paris' } }] },
          { output: [{ type: 'message', text: 'It is sunny in Paris.' }] },
        );
        session.sendMessage('Weather in Paris?');
        const followUp = await events.waitFor('response_done', () => true, 2);
        expect(followUp.status).toBe('completed');
        expect(cities).toEqual(['Paris']);
        const commands = await harness.commands();
        const [output] = commandsOf(commands, 'sendToolOutput');
        const call = events.of('tool_started')[0];
        expect(output).toEqual({
          type: 'sendToolOutput',
          callId: call?.callId,
          output: '{"city":"Paris","sky":"sunny"}',
        });
        const expectedCreates = harness.model.capabilities.autoToolResponseGeneration ? 1 : 2;
        expect(commandsOf(commands, 'createResponse')).toHaveLength(expectedCreates);
        expect(events.of('response_started')).toHaveLength(2);
        expect(events.of('error')).toEqual([]);
        expect(session.history.find((i) => i.type === 'function_call')).toMatchObject({
          name: 'get_weather',
          output: '{"city":"Paris","sky":"sunny"}',
          status: 'completed',
        });
        expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'It is sunny in Paris.' });
      },
    );
  },
};
