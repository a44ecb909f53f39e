import { Agent, backgroundResult, tool } from '@parley/core';
import { expect } from 'vitest';
import { z } from 'zod';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

/** A tool's `backgroundResult`: its output reaches the model, and no response is requested for it. */
export const backgroundResultScenario: ConformanceScenario = {
  name: 'a background tool result: the output goes to the model, no follow-up response is requested for it',
  requires: ['responseRequests'],
  exercises: ['autoToolResponseGeneration'],
  async run(harness) {
    const track = tool({
      name: 'track',
      description: 'Where a parcel is',
      parameters: z.object({ id: z.string() }),
      execute: ({ id }) => backgroundResult({ id, at: 'depot' }),
    });
    await withSession(harness, new Agent({ name: 'Clerk', tools: [track] }), async (session, events) => {
      await session.connect();
      const auto = harness.model.capabilities.autoToolResponseGeneration;
      await harness.respondWith(
        { output: [{ type: 'function_call', name: 'track', arguments: { id: 'p1' } }] },
        // A provider that answers tool outputs by itself plays this; the session asks for nothing.
        ...(auto ? [{ output: [{ type: 'message' as const, text: 'Noted.' }] }] : []),
      );
      const first = await session.generateResponse();
      const end = await events.waitFor('tool_done');
      expect(end).toMatchObject({ name: 'track', status: 'completed', background: true, responseId: first });
      await harness.waitForCommand('sendToolOutput');
      await events.waitFor('response_done', (e) => e.responseId === first);
      // One more reply of the app's own: every command of the turn was sent before it.
      await harness.respondWith({ output: [{ type: 'message', text: 'Anything else?' }] });
      const next = await session.generateResponse();
      await events.waitFor('response_done', (e) => e.responseId === next);
      const commands = await harness.commands();
      expect(commandsOf(commands, 'sendToolOutput')).toEqual([
        { type: 'sendToolOutput', callId: end.callId, output: '{"id":"p1","at":"depot"}' },
      ]);
      // The app's two requests, and no follow-up for the background output.
      expect(commandsOf(commands, 'createResponse')).toHaveLength(2);
      expect(session.history.find((i) => i.type === 'function_call')).toMatchObject({
        output: '{"id":"p1","at":"depot"}',
      });
      expect(events.of('error')).toEqual([]);
    });
  },
};
