import { Agent, type RealtimeHistoryItem } from '@parley/core';
import { expect } from 'vitest';
import { type ConformanceScenario, ScenarioSkippedError } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

const SAID = 'Remember the code 4711.';
const PARTIAL = 'What is my acc';

const userSaid = (item: RealtimeHistoryItem, text: string) =>
  item.type === 'message' && item.role === 'user' && item.text === text;

/**
 * A user turn whose transcript was still arriving when the connection dropped is kept as what was heard, marked
 * partial, and not replayed into the new conversation as if complete: a provider with conversation items does not
 * get it again (a `history_not_replayed` warning names it); one with an append-only context gets it in the replayed
 * thought, marked as cut off. The rest of the history is replayed as usual.
 */
export const transcriptionCutScenario: ConformanceScenario = {
  name: 'a user transcript cut mid-transcription is marked partial and not replayed as complete',
  requires: ['userTranscription'],
  async run(harness) {
    if (!harness.cutMidTranscription) {
      throw new ScenarioSkippedError(
        `the harness of provider "${harness.model.provider}" cannot cut a connection mid-transcription (no cutMidTranscription())`,
      );
    }
    const { capabilities } = harness.model;
    const replayedAsThought = !capabilities.mutableChatContext && capabilities.contextAppends === true;
    await withSession(harness, new Agent({ name: 'Listener' }), async (session, events) => {
      await session.connect();
      // A complete message to replay, where the app can send one without a response.
      const control = capabilities.responseRequests;
      if (control) {
        session.sendMessage(SAID, { respond: false });
        await events.waitFor('history_added', (e) => userSaid(e.item, SAID));
      }
      await harness.cutMidTranscription?.(PARTIAL);
      await events.waitFor('reconnected');

      const cut = session.history.find((item) => userSaid(item, PARTIAL));
      expect(cut).toMatchObject({ role: 'user', text: PARTIAL, status: 'incomplete', interrupted: true });
      if (replayedAsThought) {
        const [replay] = await harness.waitForCommand(
          (c) => c.type === 'appendContext' && c.text.includes(PARTIAL),
        );
        const line = (replay?.type === 'appendContext' ? replay.text : '')
          .split('\n')
          .find((l) => l.includes(PARTIAL));
        expect(line).toMatch(/cut off/);
      } else {
        const warning = await events.waitFor('warning', (e) => e.code === 'history_not_replayed');
        expect(warning.message).toContain(cut?.itemId);
      }
      // The complete message is replayed (sent again on the new connection); the partial turn never is.
      if (control) {
        await harness.waitForCommand(
          (c) => c.type === 'createItem' && JSON.stringify(c.item).includes(SAID),
          {
            count: 2,
          },
        );
        expect(session.history.filter((item) => userSaid(item, SAID))).toHaveLength(1);
      }
      const sent = commandsOf(await harness.commands(), 'createItem');
      expect(sent.filter((c) => JSON.stringify(c.item).includes(PARTIAL))).toEqual([]);
      expect(JSON.stringify(await harness.conversation())).not.toContain(PARTIAL);
      expect(events.of('error')).toEqual([]);
    });
  },
};
