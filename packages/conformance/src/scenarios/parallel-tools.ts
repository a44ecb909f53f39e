import { Agent, type RealtimeSession, tool } from '@parley/core';
import { expect } from 'vitest';
import { z } from 'zod';
import type { RealtimeHarness } from '../harness.js';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, deferred, type EventRecorder, withSession } from '../support.js';

function gatedAgent() {
  const gates = [deferred<string>(), deferred<string>(), deferred<string>()];
  const step = tool({
    name: 'step',
    description: 'One of several independent steps',
    parameters: z.object({ i: z.number() }),
    execute: ({ i }) => gates[i]!.promise,
  });
  return { agent: new Agent({ name: 'Worker', tools: [step] }), gates };
}

const threeCalls = [0, 1, 2].map((i) => ({
  type: 'function_call' as const,
  name: 'step',
  arguments: { i },
  callId: `par_${i}`,
}));

async function creates(harness: RealtimeHarness): Promise<number> {
  return commandsOf(await harness.commands(), 'createResponse').length;
}

/**
 * Connects, scripts the three calls in one response (kept open after them when `hold`) and a follow-up that says
 * `followUp`, and asks for them.
 */
async function askForThreeCalls(
  harness: RealtimeHarness,
  session: RealtimeSession,
  script: { followUp: string; hold?: true },
): Promise<void> {
  await session.connect();
  await harness.respondWith(
    { output: threeCalls, ...(script.hold && { hold: true }) },
    { output: [{ type: 'message', text: script.followUp }] },
  );
  session.sendMessage('Do all three steps.');
}

/**
 * The calls' response and exactly one follow-up ran, without errors: the session asked for the follow-up once,
 * unless the provider starts it by itself (`autoToolResponseGeneration`).
 */
async function expectOneFollowUp(harness: RealtimeHarness, events: EventRecorder): Promise<void> {
  await events.waitFor('response_done', () => true, 2);
  expect(await creates(harness)).toBe(harness.model.capabilities.autoToolResponseGeneration ? 1 : 2);
  expect(events.of('response_started')).toHaveLength(2);
  expect(events.of('error')).toEqual([]);
}

/** Three calls in one response finishing after it ended: the last one to finish starts the only follow-up. */
export const parallelToolsAfterEndScenario: ConformanceScenario = {
  name: 'parallel tool calls finishing after the response: exactly one follow-up response',
  requires: ['responseRequests'],
  exercises: ['autoToolResponseGeneration'],
  async run(harness) {
    const { agent, gates } = gatedAgent();
    await withSession(harness, agent, async (session, events) => {
      await askForThreeCalls(harness, session, { followUp: 'All three done.' });
      await events.waitFor('response_done');
      for (const [n, i] of [2, 0].entries()) {
        gates[i]!.resolve(`done ${i}`);
        await harness.waitForCommand('sendToolOutput', { count: n + 1 });
      }
      expect(await creates(harness)).toBe(1);
      gates[1]!.resolve('done 1');
      await harness.waitForCommand('sendToolOutput', { count: 3 });
      await expectOneFollowUp(harness, events);
      expect(session.history.at(-1)).toMatchObject({ text: 'All three done.' });
    });
  },
};

/**
 * Three calls that all finish while their response is still active: its end starts the only follow-up. Its premise is
 * a response that stays open after its calls (`compoundResponses`).
 */
export const parallelToolsBeforeEndScenario: ConformanceScenario = {
  name: 'parallel tool calls finishing before the response ends: exactly one follow-up response',
  requires: ['responseRequests', 'compoundResponses'],
  exercises: ['autoToolResponseGeneration'],
  async run(harness) {
    const { agent, gates } = gatedAgent();
    await withSession(harness, agent, async (session, events) => {
      await askForThreeCalls(harness, session, { followUp: 'Finished.', hold: true });
      await events.waitFor('tool_started', () => true, 3);
      for (const g of gates) g.resolve('ok');
      await harness.waitForCommand('sendToolOutput', { count: 3 });
      expect(events.of('response_done')).toHaveLength(0);
      expect(await creates(harness)).toBe(1);
      await harness.finishResponse();
      await expectOneFollowUp(harness, events);
    });
  },
};
