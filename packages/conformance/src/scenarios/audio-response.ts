import { Agent, PCM16_BYTES_PER_MS } from '@parley/core';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { withSession } from '../support.js';

/** A spoken response: PCM16 audio keyed by response and item, its transcript, then audio_done. */
export const audioResponseScenario: ConformanceScenario = {
  name: 'audio response: PCM16 chunks keyed by response and item, transcript, audio_done',
  requires: ['audioOutput', 'responseRequests'],
  async run(harness) {
    await withSession(harness, new Agent({ name: 'Speaker' }), async (session, events) => {
      await session.connect();
      await harness.respondWith({ output: [{ type: 'message', text: 'Listen to this.', audioMs: 500 }] });
      const responseId = await session.generateResponse();
      await events.waitFor('response_done');
      const audio = events.of('audio');
      expect(audio.length).toBeGreaterThan(0);
      const itemId = audio[0]!.itemId;
      expect(audio.every((a) => a.responseId === responseId && a.itemId === itemId)).toBe(true);
      expect(audio.reduce((sum, a) => sum + a.data.byteLength, 0)).toBe(500 * PCM16_BYTES_PER_MS);
      expect(events.of('audio_done')).toEqual([{ type: 'audio_done', responseId, itemId }]);
      expect(events.spokenText(responseId)).toBe('Listen to this.');
      expect(session.history.at(-1)).toMatchObject({
        itemId,
        role: 'assistant',
        text: 'Listen to this.',
        hasAudio: true,
        status: 'completed',
      });
    });
  },
};
