import { Agent, ReportedPlaybackTracker } from '@parley/core';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

/** What the first (ephemeral, instructed) response may warn about. */
const FIRST_RESPONSE_WARNINGS = ['ephemeral_response_unsupported', 'response_instructions_persist'];

/**
 * Every provider, whatever it declares: what the session cannot do for lack of a capability is a
 * `warning` naming what stays behind, and the conversation goes on.
 */
export const capabilityFallbacksScenario: ConformanceScenario = {
  name: 'capability fallbacks: each missing capability is a warning naming what stays, and the session goes on',
  requires: ['responseRequests'],
  exercises: ['ephemeralResponse', 'audioOutput', 'messageTruncation', 'mutableChatContext'],
  async run(harness) {
    const { ephemeralResponse, audioOutput, messageTruncation, mutableChatContext } =
      harness.model.capabilities;
    await withSession(
      harness,
      new Agent({ name: 'Fallback' }),
      async (session, events) => {
        await session.connect();

        // An ephemeral response: out of band where declared, otherwise an ordinary response, with a warning.
        await harness.respondWith({ output: [{ type: 'message', text: 'Ephemeral or not.' }] });
        const response = session.generateResponse({ instructions: 'Say it once.', addToHistory: false });
        const replyId = await response;
        await response.done;
        await events.waitFor('response_done', (e) => e.responseId === replyId);
        // The app played it to the end (with reported playback, unreported audio counts as unheard).
        for (const done of events.of('audio_done')) session.playback.finished(done.itemId);
        const [create] = commandsOf(await harness.commands(), 'createResponse');
        expect(create?.ephemeral).toBe(ephemeralResponse);
        const ephemeralWarnings = events
          .of('warning')
          .filter((w) => w.code === 'ephemeral_response_unsupported');
        expect(ephemeralWarnings).toHaveLength(ephemeralResponse ? 0 : 1);
        expect(session.history.some((i) => i.type === 'message' && i.responseId === replyId)).toBe(
          !ephemeralResponse,
        );

        if (audioOutput) {
          // One message partly heard, then one never heard: each its own response, as every provider can speak.
          const interrupted = async (text: string, heardMs: number) => {
            await harness.respondWith({
              output: [{ type: 'message', text, audioMs: 400 }],
              hold: true,
            });
            const responseId = await session.generateResponse();
            const { itemId } = await events.waitFor('audio_done', (e) => e.responseId === responseId);
            if (heardMs > 0) session.playback.played(itemId, heardMs);
            session.interrupt();
            await events.waitFor('response_done', (e) => e.responseId === responseId);
            return itemId;
          };
          const heard = await interrupted('Partly heard.', 100);
          const unheard = await interrupted('Never heard.', 0);
          if (messageTruncation) await harness.waitForCommand('truncateItem', { count: 2 });
          if (mutableChatContext) await harness.waitForCommand('deleteItem');
          const commands = await harness.commands();
          expect(commandsOf(commands, 'truncateItem').map((t) => [t.itemId, t.heardMs])).toEqual(
            messageTruncation
              ? [
                  [heard, 100],
                  [unheard, 0],
                ]
              : [],
          );
          expect(commandsOf(commands, 'deleteItem').map((d) => d.itemId)).toEqual(
            mutableChatContext ? [unheard] : [],
          );
          const interruptionWarnings = events
            .of('warning')
            .filter((w) => !FIRST_RESPONSE_WARNINGS.includes(w.code))
            .map((w) => [w.code, w.itemId]);
          expect(interruptionWarnings).toEqual([
            ...(messageTruncation ? [] : [['message_not_truncated', heard]]),
            ...(messageTruncation || mutableChatContext ? [] : [['message_not_removed', unheard]]),
          ]);
          for (const [, itemId] of interruptionWarnings) {
            expect(events.of('warning').find((w) => w.itemId === itemId)?.message).toContain(
              itemId as string,
            );
          }
        }

        // The conversation goes on.
        await harness.respondWith({ output: [{ type: 'message', text: 'Still here.' }] });
        session.sendMessage('Are you there?');
        await events.waitFor(
          'history_updated',
          (e) => e.item.type === 'message' && e.item.text === 'Still here.',
        );
        expect(events.of('error')).toEqual([]);
      },
      { playbackTracker: new ReportedPlaybackTracker() },
    );
  },
};
