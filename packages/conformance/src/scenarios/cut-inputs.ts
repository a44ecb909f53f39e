import { Agent, type RealtimeHistoryItem, type RealtimeItem } from '@parley/core';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { withSession } from '../support.js';

/** The provider's conversation item of a user message with this text. */
const saidInConversation = (item: RealtimeItem, text: string) =>
  item.type === 'message' &&
  item.role === 'user' &&
  item.content.some((part) => part.type === 'text' && part.text === text);

/** The history item of a user message with this text. */
const saidInHistory = (item: RealtimeHistoryItem, text: string) =>
  item.type === 'message' && item.role === 'user' && item.text === text;

/**
 * A user message sent right before the connection drops is never lost and never doubled: acknowledged before the
 * cut, it comes back with the replayed history; not acknowledged, the session replays it after the history.
 */
export const cutInputScenario: ConformanceScenario = {
  name: 'a user message sent just before a dropped connection reaches the new conversation exactly once',
  requires: ['responseRequests'],
  exercises: ['contentAcknowledgements'],
  async run(harness) {
    await withSession(harness, new Agent({ name: 'Keeper' }), async (session, events) => {
      await session.connect();
      const text = 'Remember the code 4711.';
      session.sendMessage(text, { respond: false });
      await harness.disconnect();
      await events.waitFor('reconnected');
      await events.waitFor('history_added', (e) => saidInHistory(e.item, text));
      // A reply after the replay: once it is done, the backend has taken everything sent before it.
      await harness.respondWith({ output: [{ type: 'message', text: 'Noted.' }] });
      await session.generateResponse().done;
      const conversation = await harness.conversation();
      expect(conversation.filter((item) => saidInConversation(item, text))).toHaveLength(1);
      expect(session.history.filter((item) => saidInHistory(item, text))).toHaveLength(1);
      expect(events.of('error').filter((e) => e.code === 'turn_lost')).toEqual([]);
    });
  },
};
