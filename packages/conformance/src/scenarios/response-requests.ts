import { Agent, CapabilityNotSupportedError, declaresCapability } from '@parley/core';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

/**
 * Where the app can take a turn, a user message asks for exactly one response; where the model takes its turns by
 * itself, `sendMessage`, `generateResponse` and `commitAudio({ respond: true })` (unless a commit answers by itself) are
 * refused before anything is sent.
 */
export const responseRequestsScenario: ConformanceScenario = {
  name: 'response requests: a user message gets one response, or (not declared) is refused before anything is sent',
  requires: [],
  exercises: ['responseRequests', 'commitStartsResponse'],
  async run(harness) {
    await withSession(harness, new Agent({ name: 'Asker' }), async (session, events) => {
      await session.connect();
      if (harness.model.capabilities.responseRequests) {
        await harness.respondWith({ output: [{ type: 'message', text: 'Asked and answered.' }] });
        session.sendMessage('A question.');
        expect((await events.waitFor('response_done')).status).toBe('completed');
        expect(commandsOf(await harness.commands(), 'createResponse')).toHaveLength(1);
      } else {
        expect(() => session.sendMessage('A question.')).toThrow(CapabilityNotSupportedError);
        expect(() => session.generateResponse()).toThrow(CapabilityNotSupportedError);
        // Where a commit answers by itself, asking for that answer is no request of the app's.
        if (!declaresCapability(harness.model.capabilities, 'commitStartsResponse')) {
          expect(() => session.commitAudio({ respond: true })).toThrow(CapabilityNotSupportedError);
        }
        const sent = (await harness.commands()).filter(
          (c) => c.type === 'createItem' || c.type === 'createResponse' || c.type === 'commitInputAudio',
        );
        expect(sent).toEqual([]);
        expect(session.status).toBe('connected');
      }
      expect(events.of('error')).toEqual([]);
    });
  },
};
