import { Agent } from '@parley/core';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

/** The provider detects a user turn, transcribes it, and answers by itself. */
export const userSpeechScenario: ConformanceScenario = {
  name: 'user speech detected by the provider: a user turn in history and a provider-started response',
  requires: ['turnDetection'],
  exercises: ['userTranscription'],
  async run(harness) {
    await withSession(harness, new Agent({ name: 'Listener' }), async (session, events) => {
      await session.connect();
      await harness.respondWith({ output: [{ type: 'message', text: 'I heard you.' }] });
      await harness.userStartsSpeaking();
      await harness.userStopsSpeaking({ transcript: 'Can you hear me?' });
      const done = await events.waitFor('response_done');
      expect(done.status).toBe('completed');
      expect(events.of('response_started')[0]?.clientRequestId).toBeUndefined();
      expect(commandsOf(await harness.commands(), 'createResponse')).toEqual([]);
      const user = session.history.find((i) => i.type === 'message' && i.role === 'user');
      expect(user).toMatchObject({ hasAudio: true });
      if (harness.model.capabilities.userTranscription) {
        await events.waitFor(
          'history_updated',
          (e) => e.item.itemId === user?.itemId && e.item.type === 'message' && e.item.text !== '',
        );
        expect(session.history.find((i) => i.itemId === user?.itemId)).toMatchObject({
          text: 'Can you hear me?',
        });
      }
      expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'I heard you.' });
    });
  },
};
