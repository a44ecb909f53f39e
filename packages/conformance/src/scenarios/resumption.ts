import { Agent, type RealtimeItem } from '@parley/core';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

/** The user messages with this text in a provider conversation. */
const said = (conversation: readonly RealtimeItem[], text: string) =>
  conversation.filter(
    (item) =>
      item.type === 'message' &&
      item.role === 'user' &&
      item.content.some((part) => part.type === 'text' && part.text === text),
  );

/**
 * A provider that resumes conversations hands the session a resume token; after a dropped connection the session
 * resumes with it and replays only what the token does not hold: nothing before it is sent again, what came after it
 * reaches the resumed conversation exactly once.
 */
export const resumptionScenario: ConformanceScenario = {
  name: 'a dropped connection resumes the conversation: only what the resume token does not hold is replayed',
  requires: ['sessionResumption', 'responseRequests'],
  async run(harness) {
    await withSession(harness, new Agent({ name: 'Resumer' }), async (session, events) => {
      await session.connect();
      await harness.respondWith({ output: [{ type: 'message', text: 'Got it.' }] });
      session.sendMessage('Remember the code 4711.');
      await events.waitFor('response_done');
      // Sent after the provider's last turn: a token issued before it cannot hold it.
      session.sendMessage('And the room is 12.', { respond: false });
      const before = (await harness.commands()).length;
      await harness.disconnect();
      const reconnected = await events.waitFor('reconnected');
      expect(reconnected.resumed).toBe(true);
      const after = (await harness.commands()).slice(before);
      const replayedTexts = commandsOf(after, 'createItem').flatMap((c) =>
        c.item.type === 'message' ? c.item.content.map((p) => (p.type === 'text' ? p.text : '')) : [],
      );
      expect(replayedTexts).not.toContain('Remember the code 4711.');
      expect(replayedTexts).not.toContain('Got it.');
      await harness.respondWith({ output: [{ type: 'message', text: 'Room 12, code 4711.' }] });
      await session.generateResponse().done;
      const conversation = await harness.conversation();
      expect(said(conversation, 'Remember the code 4711.')).toHaveLength(1);
      expect(said(conversation, 'And the room is 12.')).toHaveLength(1);
      expect(events.of('error')).toEqual([]);
    });
  },
};
