import { Agent, declaresCapability } from '@parley/core';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { ScenarioSkippedError } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

/** 200 ms of PCM16 24 kHz mono silence: more than any provider's shortest commit. */
const TURN = new Uint8Array(9600);

/**
 * Push-to-talk (turn detection off): a committed turn is answered exactly once, by the provider itself where a commit
 * starts the answer (`commitStartsResponse`: the session asks for nothing), else at the session's one request.
 */
export const pushToTalkScenario: ConformanceScenario = {
  name: 'push-to-talk: a committed turn is answered exactly once (the session asks only where a commit does not)',
  requires: [],
  exercises: ['commitStartsResponse'],
  async run(harness) {
    const { capabilities } = harness.model;
    const commitAnswers = declaresCapability(capabilities, 'commitStartsResponse');
    if (!commitAnswers && !capabilities.responseRequests) {
      throw new ScenarioSkippedError(
        'nothing answers a commit: no commitStartsResponse, no responseRequests',
        { missing: ['commitStartsResponse', 'responseRequests'] },
      );
    }
    const options = { config: { turnDetection: null } };
    await withSession(
      harness,
      new Agent({ name: 'Walkie' }),
      async (session, events) => {
        await session.connect();
        await harness.respondWith({ output: [{ type: 'message', text: 'Over.' }] });
        session.sendAudio(TURN);
        session.commitAudio();
        expect((await events.waitFor('response_done')).status).toBe('completed');
        const requests = commandsOf(await harness.commands(), 'createResponse');
        expect(requests).toHaveLength(commitAnswers ? 0 : 1);
        expect(events.of('response_started')).toHaveLength(1);
        expect(events.of('error')).toEqual([]);
      },
      options,
    );
  },
};

/**
 * Instructions for one response reach the provider with that request; where they can only enter the model's context
 * (no `responseInstructions`), the app is told with a `response_instructions_persist` warning, and where they apply to
 * the response alone, nothing of them stays in the conversation.
 */
export const responseInstructionsScenario: ConformanceScenario = {
  name: 'per-response instructions go out with their request; where they would persist, a warning says so',
  requires: ['responseRequests'],
  exercises: ['responseInstructions'],
  async run(harness) {
    const alone = declaresCapability(harness.model.capabilities, 'responseInstructions');
    const instructions = 'Answer in exactly three words.';
    await withSession(harness, new Agent({ name: 'Terse' }), async (session, events) => {
      await session.connect();
      await harness.respondWith({ output: [{ type: 'message', text: 'Three words exactly.' }] });
      const handle = session.generateResponse({ instructions });
      await handle.done;
      const [request] = commandsOf(await harness.commands(), 'createResponse');
      expect(request).toMatchObject({ clientRequestId: handle.clientRequestId, instructions });
      const warnings = events.of('warning').filter((w) => w.code === 'response_instructions_persist');
      expect(warnings).toHaveLength(alone ? 0 : 1);
      if (!alone) return;
      const kept = (await harness.conversation()).filter(
        (item) =>
          item.type === 'message' && item.content.some((p) => p.type === 'text' && p.text === instructions),
      );
      expect(kept).toEqual([]);
    });
  },
};
