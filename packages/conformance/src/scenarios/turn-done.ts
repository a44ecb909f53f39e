import { Agent, ReportedPlaybackTracker, tool } from '@parley/core';
import { expect } from 'vitest';
import { z } from 'zod';
import type { ConformanceScenario } from '../scenario.js';
import { withSession } from '../support.js';

/** A message, then a function call in the same response, then the follow-up: one `turn_done` for each. */
export const turnDoneScenario: ConformanceScenario = {
  name: 'turn_done: once per response, with its transcript, outcome and tool calls, even when a function call follows the message',
  requires: ['responseRequests'],
  exercises: ['audioOutput'],
  async run(harness) {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks something up',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => `found ${q}`,
    });
    const agent = new Agent({ name: 'Checker', tools: [lookup] });
    await withSession(
      harness,
      agent,
      async (session, events) => {
        // The app plays the audio itself and reports each message heard to its end.
        session.on('audio_done', (e) => session.playback.finished(e.itemId));
        await session.connect();
        await harness.respondWith(
          {
            output: [
              { type: 'message', text: 'Let me check that.', audioMs: 300 },
              { type: 'function_call', name: 'lookup', arguments: { q: 'keys' } },
            ],
          },
          { output: [{ type: 'message', text: 'Your keys are in the drawer.', audioMs: 300 }] },
        );
        const first = await session.generateResponse();
        await events.waitFor('turn_done', () => true, 2);
        const [done1, done2] = events.of('response_done');
        expect(done1?.responseId).toBe(first);
        const turns = events.of('turn_done');
        const [call] = events.of('tool_started');
        expect(turns.map((t) => t.responseId)).toEqual([first, done2?.responseId]);
        expect(turns[0]).toMatchObject({
          responseId: first,
          agent,
          status: 'completed',
          outcome: 'full',
          transcript: 'Let me check that.',
          messages: [{ outcome: 'full', text: 'Let me check that.' }],
          toolCalls: [{ callId: call?.callId, name: 'lookup' }],
        });
        expect(turns[1]).toMatchObject({
          status: 'completed',
          outcome: 'full',
          transcript: 'Your keys are in the drawer.',
          messages: [{ outcome: 'full', text: 'Your keys are in the drawer.' }],
          toolCalls: [],
        });
        // Each after its response's response_done.
        const types = events.types();
        expect(types.indexOf('turn_done')).toBeGreaterThan(types.indexOf('response_done'));
        // Once per response: nothing more arrives for them.
        await harness.respondWith({ output: [{ type: 'message', text: 'Anything else?', audioMs: 200 }] });
        const third = await session.generateResponse();
        await events.waitFor('turn_done', (t) => t.responseId === third);
        expect(events.of('turn_done').map((t) => t.responseId)).toEqual([first, done2?.responseId, third]);
        expect(events.of('error')).toEqual([]);
      },
      { playbackTracker: new ReportedPlaybackTracker() },
    );
  },
};
