import { Agent } from '@parley/core';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

/** A user text message gets one response; both land in history. */
export const textResponseScenario: ConformanceScenario = {
  name: 'text message in, one response out, both in history',
  requires: ['responseRequests'],
  async run(harness) {
    await withSession(harness, new Agent({ name: 'Echo' }), async (session, events) => {
      await session.connect();
      await harness.respondWith({ output: [{ type: 'message', text: 'Hello from the model.' }] });
      session.sendMessage('Hi there');
      const done = await events.waitFor('response_done');
      expect(done.status).toBe('completed');

      const commands = await harness.commands();
      const [item] = commandsOf(commands, 'createItem');
      expect(item?.item).toMatchObject({
        type: 'message',
        role: 'user',
        content: [{ type: 'text', text: 'Hi there' }],
      });
      const creates = commandsOf(commands, 'createResponse');
      expect(creates).toHaveLength(1);
      const started = events.of('response_started')[0];
      expect(started).toMatchObject({
        responseId: done.responseId,
        clientRequestId: creates[0]?.clientRequestId,
      });
      expect(events.spokenText(done.responseId)).toBe('Hello from the model.');
      expect(session.history.map((i) => (i.type === 'message' ? [i.role, i.text] : i.type))).toEqual([
        ['user', 'Hi there'],
        ['assistant', 'Hello from the model.'],
      ]);
    });
  },
};

/** generateResponse() resolves with the id of the response the provider started for it. */
export const generateResponseScenario: ConformanceScenario = {
  name: 'generateResponse resolves with the started response id',
  requires: ['responseRequests'],
  async run(harness) {
    await withSession(harness, new Agent({ name: 'Host' }), async (session, events) => {
      await session.connect();
      await harness.respondWith({ output: [{ type: 'message', text: 'Welcome!' }] });
      const handle = session.generateResponse({ instructions: 'Welcome the caller.' });
      const responseId = await handle;
      const [create] = commandsOf(await harness.waitForCommand('createResponse'), 'createResponse');
      expect(create).toMatchObject({
        clientRequestId: handle.clientRequestId,
        instructions: 'Welcome the caller.',
      });
      expect((await events.waitFor('response_started')).responseId).toBe(responseId);
      expect(await handle.done).toEqual({ responseId, status: 'completed' });
    });
  },
};
