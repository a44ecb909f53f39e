import { Agent, ReportedPlaybackTracker } from '@parley/core';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

/**
 * Where the service plays the audio (a WebRTC call, a phone line), an interruption is a cancel plus
 * `clearOutputAudio` in the same turn, never a truncation by the session; what was heard is what the service
 * reports, not the app's playback report.
 */
export const servicePlaybackScenario: ConformanceScenario = {
  name: 'service playback: interrupt is cancel + clearOutputAudio, no truncate; the heard position is the service’s',
  requires: ['servicePlayback', 'audioOutput', 'responseRequests'],
  async run(harness) {
    await withSession(
      harness,
      new Agent({ name: 'Storyteller' }),
      async (session, events) => {
        await session.connect();
        await harness.respondWith({
          output: [
            {
              type: 'message',
              text: 'Once upon a time there was a very long story.',
              audioMs: 1000,
              holdAfterMs: 600,
            },
          ],
        });
        const responseId = await session.generateResponse();
        const { itemId } = await events.waitFor('audio', (e) => e.responseId === responseId);
        // An app report the session must not use: the service knows better.
        session.playback.played(itemId, 999_999);
        session.interrupt();
        const interrupted = await events.waitFor('audio_interrupted', (e) => e.responseId === responseId);
        await events.waitFor('response_done', (e) => e.responseId === responseId);
        const commands = await harness.commands();
        const stops = commands.filter((c) =>
          ['cancelResponse', 'clearOutputAudio', 'truncateItem', 'deleteItem'].includes(c.type),
        );
        expect(stops).toEqual([{ type: 'cancelResponse', responseId }, { type: 'clearOutputAudio' }]);
        expect(commandsOf(commands, 'truncateItem')).toEqual([]);
        expect(interrupted.itemId).toBe(itemId);
        expect(Number.isInteger(interrupted.heardMs)).toBe(true);
        expect(interrupted.heardMs).toBeLessThan(1000);
        const heard = session.history.find((item) => item.itemId === itemId);
        if ((interrupted.heardMs ?? 0) > 0)
          expect(heard).toMatchObject({ interrupted: true, heardMs: interrupted.heardMs });
        else expect(heard).toBeUndefined();
      },
      { playbackTracker: new ReportedPlaybackTracker() },
    );
  },
};
