import { Agent, ReportedPlaybackTracker } from '@parley/core';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';
import { interruptStory, STORY } from './interrupted-story.js';

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
        // An app report the session must not use: the service knows better.
        const { responseId, itemId } = await interruptStory(harness, session, events, { playedMs: 999_999 });
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
        expect(interrupted.heardMs).toBeLessThan(STORY.audioMs);
        const heard = session.history.find((item) => item.itemId === itemId);
        if ((interrupted.heardMs ?? 0) > 0)
          expect(heard).toMatchObject({ interrupted: true, heardMs: interrupted.heardMs });
        else expect(heard).toBeUndefined();
      },
      { playbackTracker: new ReportedPlaybackTracker() },
    );
  },
};
