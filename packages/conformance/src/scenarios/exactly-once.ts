import { Agent, tool } from '@parley/core';
import { expect } from 'vitest';
import { z } from 'zod';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

/** A function call id runs at most once per session, whatever the provider re-sends. */
export const repeatedCallScenario: ConformanceScenario = {
  name: 'a call id delivered again in a later response never runs again or sends a second output',
  requires: ['responseRequests'],
  async run(harness) {
    const runs: string[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Looks a key up',
      parameters: z.object({ key: z.string() }),
      execute: ({ key }) => {
        runs.push(key);
        return `value of ${key}`;
      },
    });
    const call = {
      type: 'function_call' as const,
      name: 'lookup',
      arguments: { key: 'a' },
      callId: 'call_once',
    };
    await withSession(harness, new Agent({ name: 'Looker', tools: [lookup] }), async (session, events) => {
      await session.connect();
      await harness.respondWith(
        { output: [call] },
        { output: [{ type: 'message', text: 'The value is known.' }] },
        { output: [call] },
      );
      session.sendMessage('Look a up.');
      await events.waitFor('response_done', () => true, 2);
      expect(runs).toEqual(['a']);
      session.sendMessage('Look it up again.');
      await events.waitFor('warning', (w) => w.code === 'tool_call_repeated');
      await events.waitFor('response_done', () => true, 3);
      expect(runs).toEqual(['a']);
      expect(commandsOf(await harness.commands(), 'sendToolOutput')).toHaveLength(1);
      expect(events.of('tool_started')).toHaveLength(1);
      expect(events.of('error')).toEqual([]);
    });
  },
};
