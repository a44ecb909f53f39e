import { Agent, declaresCapability, MAX_ERROR_FOLLOW_UPS, ResponseRefusedError } from '@parley/core';
import { expect } from 'vitest';
import type { RealtimeHarness } from '../harness.js';
import type { ConformanceScenario } from '../scenario.js';
import { cannotReportErrors, commandsOf, withSession } from '../support.js';

async function creates(harness: RealtimeHarness): Promise<number> {
  return commandsOf(await harness.commands(), 'createResponse').length;
}

/** A refused request releases the queue even when the refusal does not name it. */
export const unnamedRefusalScenario: ConformanceScenario = {
  name: 'a refusal that names no request releases the queue at once',
  requires: ['responseRequests', 'recoverableErrors'],
  async run(harness) {
    const collide = harness.collideNextResponse;
    if (!collide) throw cannotReportErrors(harness, 'collideNextResponse()');
    await withSession(harness, new Agent({ name: 'Patient' }), async (session, events) => {
      await session.connect();
      await collide.call(harness);
      await harness.respondWith({ output: [{ type: 'message', text: 'Here I am.' }] });
      const first = session.generateResponse();
      const second = session.generateResponse();
      await expect(first).rejects.toBeInstanceOf(ResponseRefusedError);
      // The response timeout (15 s) is far beyond the scenario's waits: only the release gets it started.
      const responseId = await second;
      await events.waitFor('response_done', (e) => e.responseId === responseId);
      const refusal = await events.waitFor('error', (e) => e.source === 'provider');
      expect(refusal.clientRequestId).toBe(first.clientRequestId);
      expect(await creates(harness)).toBe(2);
    });
  },
};

/**
 * Several user messages sent while a response is active lead to one follow-up response. Where new content would
 * interrupt the model (no `contentDuringResponse`), they are held until the response is done and go out before it.
 */
export const coalescedInputsScenario: ConformanceScenario = {
  name: 'user messages queued during one response lead to one follow-up response',
  requires: ['responseRequests'],
  exercises: ['contentDuringResponse'],
  async run(harness) {
    const duringResponse = declaresCapability(harness.model.capabilities, 'contentDuringResponse');
    await withSession(harness, new Agent({ name: 'Listener' }), async (session, events) => {
      await session.connect();
      await harness.respondWith(
        { output: [{ type: 'message', text: 'Let me think.' }], hold: true },
        { output: [{ type: 'message', text: 'One answer for all of it.' }] },
      );
      session.sendMessage('First question.');
      await events.waitFor('response_started');
      session.sendMessage('Second.');
      session.sendMessage('Third.');
      if (duringResponse) await harness.waitForCommand('createItem', { count: 3 });
      else {
        await harness.waitForCommand('createItem');
        expect(commandsOf(await harness.commands(), 'createItem')).toHaveLength(1);
      }
      expect(await creates(harness)).toBe(1);
      await harness.finishResponse();
      expect((await events.waitFor('response_done')).status).toBe('completed');
      await events.waitFor('response_done', () => true, 2);
      const commands = await harness.commands();
      expect(commandsOf(commands, 'createItem')).toHaveLength(3);
      expect(commandsOf(commands, 'createResponse')).toHaveLength(2);
      // The held messages went out before the one request that answers them.
      const types = commands.map((c) => c.type);
      expect(types.lastIndexOf('createItem')).toBeLessThan(types.lastIndexOf('createResponse'));
      expect(session.history.at(-1)).toMatchObject({ text: 'One answer for all of it.' });
    });
  },
};

/** Automatic follow-ups that only answer errors stop after a bounded number in a row. */
export const boundedFollowUpsScenario: ConformanceScenario = {
  name: 'a model calling a missing tool again and again gets a bounded number of follow-ups',
  requires: ['responseRequests'],
  async run(harness) {
    // A provider that answers tool outputs itself gets no follow-up from the session at all.
    if (harness.model.capabilities.autoToolResponseGeneration) return;
    await withSession(harness, new Agent({ name: 'Toolless' }), async (session, events) => {
      await session.connect();
      const missing = (i: number) => ({
        output: [{ type: 'function_call' as const, name: 'missing', arguments: {}, callId: `missing_${i}` }],
      });
      await harness.respondWith(...Array.from({ length: 1 + MAX_ERROR_FOLLOW_UPS }, (_, i) => missing(i)), {
        output: [{ type: 'message', text: 'Sorry about that.' }],
      });
      session.sendMessage('Go.');
      await events.waitFor('error', (e) => e.code === 'follow_up_limit');
      await events.waitFor('response_done', () => true, 1 + MAX_ERROR_FOLLOW_UPS);
      expect(await creates(harness)).toBe(1 + MAX_ERROR_FOLLOW_UPS);
      session.sendMessage('Never mind.');
      await events.waitFor('response_done', () => true, 2 + MAX_ERROR_FOLLOW_UPS);
      expect(session.history.at(-1)).toMatchObject({ text: 'Sorry about that.' });
    });
  },
};
