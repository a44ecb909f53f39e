import { Agent, type RealtimeSession, ReportedPlaybackTracker } from '@parley/core';
import { expect } from 'vitest';
import type { RealtimeHarness } from '../harness.js';
import type { ConformanceScenario } from '../scenario.js';
import { audioMsOf, commandsOf, type EventRecorder, withSession } from '../support.js';
import { interruptStory } from './interrupted-story.js';

/** The app reports playback itself, so what "was heard" is exact on every backend. */
const reported = () => ({ playbackTracker: new ReportedPlaybackTracker() });

/** Waits until `count` commands of the truncations and deletions a capability set implies arrived. */
async function contextEdits(harness: RealtimeHarness, truncates: number, deletes: number): Promise<void> {
  if (truncates > 0) await harness.waitForCommand('truncateItem', { count: truncates });
  if (deletes > 0) await harness.waitForCommand('deleteItem', { count: deletes });
}

/**
 * One more response, so every answer to the commands sent so far (an error refusing a truncation) has
 * arrived: the provider handles commands in order.
 */
async function roundTrip(
  harness: RealtimeHarness,
  session: RealtimeSession,
  events: EventRecorder,
): Promise<void> {
  await harness.respondWith({ output: [{ type: 'message', text: 'Go on.' }] });
  const responseId = await session.generateResponse();
  await events.waitFor('response_done', (e) => e.responseId === responseId);
}

/** The first audio event of a response: its message is the one being heard. */
async function firstAudioItem(events: EventRecorder, responseId: string): Promise<string> {
  return (await events.waitFor('audio', (e) => e.responseId === responseId)).itemId;
}

/** `session.interrupt()` in the middle of a message that is still being generated. */
export const interruptMidMessageScenario: ConformanceScenario = {
  name: 'interrupt mid-message: cancelled once by its response id, cut at the whole millisecond heard, history keeps what was heard',
  requires: ['audioOutput', 'responseRequests'],
  exercises: ['messageTruncation'],
  async run(harness) {
    await withSession(
      harness,
      new Agent({ name: 'Storyteller' }),
      async (session, events) => {
        await session.connect();
        // Interrupted twice in the same turn: one cancel.
        const { responseId, itemId } = await interruptStory(harness, session, events, {
          playedMs: 480.7,
          times: 2,
        });
        await events.waitFor('response_done', (e) => e.responseId === responseId);
        const { messageTruncation } = harness.model.capabilities;
        await contextEdits(harness, messageTruncation ? 1 : 0, 0);
        const commands = await harness.commands();
        expect(commandsOf(commands, 'cancelResponse')).toEqual([{ type: 'cancelResponse', responseId }]);
        expect(events.of('audio_interrupted')).toEqual([
          { type: 'audio_interrupted', responseId, itemId, heardMs: 480 },
        ]);
        expect(events.of('response_done').at(-1)).toMatchObject({ responseId, status: 'cancelled' });
        if (messageTruncation) {
          expect(commandsOf(commands, 'truncateItem')).toEqual([
            { type: 'truncateItem', itemId, heardMs: 480 },
          ]);
          expect(events.of('warning')).toEqual([]);
        } else {
          expect(commandsOf(commands, 'truncateItem')).toEqual([]);
          expect(events.of('warning')).toEqual([
            expect.objectContaining({ code: 'message_not_truncated', itemId }),
          ]);
        }
        expect(commandsOf(commands, 'deleteItem')).toEqual([]);
        const heard = session.history.find((i) => i.itemId === itemId);
        expect(heard).toMatchObject({ role: 'assistant', interrupted: true, heardMs: 480 });
        // History keeps what the listener heard: a leading part of the text (replayed after a reconnect).
        const { text, heardText } = heard as { text: string; heardText?: string };
        expect(heardText).toBeDefined();
        expect(text.startsWith(heardText ?? '')).toBe(true);
        if (text.length > 0) expect(heardText!.length).toBeLessThan(text.length);
        // The turn ends honestly: partial, with what was heard.
        expect(await events.waitFor('turn_done', (e) => e.responseId === responseId)).toMatchObject({
          status: 'cancelled',
          outcome: 'partial',
          transcript: heardText,
          messages: [{ itemId, outcome: 'partial', text, heardText, heardMs: 480 }],
        });
        await roundTrip(harness, session, events);
        expect(events.of('error')).toEqual([]);
        expect(events.of('turn_done').filter((e) => e.responseId === responseId)).toHaveLength(1);
      },
      reported(),
    );
  },
};

/** An interrupt before the listener heard anything: the message is forgotten everywhere it can be. */
export const interruptBeforeAudioScenario: ConformanceScenario = {
  name: 'interrupt before any audio was heard: the message leaves history and the provider forgets it',
  requires: ['audioOutput', 'responseRequests'],
  exercises: ['messageTruncation', 'mutableChatContext'],
  async run(harness) {
    await withSession(
      harness,
      new Agent({ name: 'Storyteller' }),
      async (session, events) => {
        await session.connect();
        await harness.respondWith({
          output: [{ type: 'message', text: 'You will never hear this sentence.', audioMs: 800 }],
          hold: true,
        });
        const responseId = await session.generateResponse();
        const { itemId } = await events.waitFor('audio_done', (e) => e.responseId === responseId);
        session.interrupt();
        await events.waitFor('response_done', (e) => e.responseId === responseId);
        const { messageTruncation, mutableChatContext } = harness.model.capabilities;
        await contextEdits(harness, messageTruncation ? 1 : 0, mutableChatContext ? 1 : 0);
        const commands = await harness.commands();
        expect(commandsOf(commands, 'cancelResponse')).toEqual([{ type: 'cancelResponse', responseId }]);
        expect(commandsOf(commands, 'truncateItem')).toEqual(
          messageTruncation ? [{ type: 'truncateItem', itemId, heardMs: 0 }] : [],
        );
        expect(commandsOf(commands, 'deleteItem')).toEqual(
          mutableChatContext ? [{ type: 'deleteItem', itemId }] : [],
        );
        expect(session.history.some((i) => i.itemId === itemId)).toBe(false);
        if (mutableChatContext) {
          await events.waitFor('history_removed', (e) => e.itemId === itemId);
          expect((await harness.conversation()).some((i) => i.itemId === itemId)).toBe(false);
        }
        expect(events.of('audio_interrupted')).toEqual([
          { type: 'audio_interrupted', responseId, itemId, heardMs: 0 },
        ]);
        expect(await events.waitFor('turn_done', (e) => e.responseId === responseId)).toMatchObject({
          outcome: 'skipped',
          transcript: '',
          messages: [{ itemId, outcome: 'skipped' }],
        });
        expect(events.of('warning')).toEqual(
          messageTruncation || mutableChatContext
            ? []
            : [expect.objectContaining({ code: 'message_not_removed', itemId })],
        );
        await roundTrip(harness, session, events);
        expect(events.of('error')).toEqual([]);
        expect(events.of('turn_done').filter((e) => e.responseId === responseId)).toHaveLength(1);
      },
      reported(),
    );
  },
};

/** The provider hears the user start speaking: the same path as `interrupt()`, but the provider cancels. */
export const bargeInScenario: ConformanceScenario = {
  name: 'barge-in: user speech stops the response through the same path; the provider cancels it, the session cuts it',
  requires: ['audioOutput', 'turnDetection', 'responseRequests'],
  exercises: ['messageTruncation'],
  async run(harness) {
    await withSession(
      harness,
      new Agent({ name: 'Talker' }),
      async (session, events) => {
        await session.connect();
        await harness.respondWith({
          output: [
            { type: 'message', text: 'Let me explain this at length.', audioMs: 900, holdAfterMs: 500 },
          ],
        });
        const responseId = await session.generateResponse();
        const itemId = await firstAudioItem(events, responseId);
        await events.waitFor('audio', (e) => e.itemId === itemId && audioMsOf(events, itemId) >= 500);
        session.playback.played(itemId, 300);
        await harness.userStartsSpeaking();
        await events.waitFor('response_done', (e) => e.responseId === responseId);
        const { messageTruncation } = harness.model.capabilities;
        await contextEdits(harness, messageTruncation ? 1 : 0, 0);
        session.interrupt();
        const commands = await harness.commands();
        expect(events.of('response_done').at(-1)).toMatchObject({ responseId, status: 'cancelled' });
        expect(commandsOf(commands, 'cancelResponse')).toEqual([]);
        expect(events.of('audio_interrupted')).toEqual([
          { type: 'audio_interrupted', responseId, itemId, heardMs: 300 },
        ]);
        expect(commandsOf(commands, 'truncateItem')).toEqual(
          messageTruncation ? [{ type: 'truncateItem', itemId, heardMs: 300 }] : [],
        );
        expect(session.history.find((i) => i.itemId === itemId)).toMatchObject({ interrupted: true });
        await roundTrip(harness, session, events);
        expect(events.of('error')).toEqual([]);
      },
      reported(),
    );
  },
};

/** No transcript arrived before the interrupt: the message is cut all the same. */
export const truncationWithoutTranscriptScenario: ConformanceScenario = {
  name: 'truncation with transcription off: a message with audio but no transcript yet is still cut',
  requires: ['audioOutput', 'responseRequests'],
  exercises: ['messageTruncation'],
  async run(harness) {
    await withSession(
      harness,
      new Agent({ name: 'Mumbler' }),
      async (session, events) => {
        await session.connect();
        await harness.respondWith({
          output: [
            {
              type: 'message',
              text: 'Words that were never written down.',
              audioMs: 1000,
              transcriptDeltas: false,
              holdAfterMs: 400,
            },
          ],
        });
        const responseId = await session.generateResponse();
        const itemId = await firstAudioItem(events, responseId);
        await events.waitFor('audio', (e) => e.itemId === itemId && audioMsOf(events, itemId) >= 400);
        expect(events.of('transcript_delta')).toEqual([]);
        expect(session.history.find((i) => i.itemId === itemId)).toMatchObject({ text: '' });
        session.playback.played(itemId, 250);
        session.interrupt();
        await events.waitFor('response_done', (e) => e.responseId === responseId);
        const { messageTruncation } = harness.model.capabilities;
        await contextEdits(harness, messageTruncation ? 1 : 0, 0);
        const commands = await harness.commands();
        expect(commandsOf(commands, 'truncateItem')).toEqual(
          messageTruncation ? [{ type: 'truncateItem', itemId, heardMs: 250 }] : [],
        );
        expect(events.of('warning').map((w) => [w.code, w.itemId])).toEqual(
          messageTruncation ? [] : [['message_not_truncated', itemId]],
        );
        expect(session.history.find((i) => i.itemId === itemId)).toMatchObject({ interrupted: true });
        await roundTrip(harness, session, events);
        expect(events.of('error')).toEqual([]);
      },
      reported(),
    );
  },
};

/** Two messages in each of two responses: full, partial, partial, skipped. */
export const multiMessageScenario: ConformanceScenario = {
  name: 'several messages in one response: each ends full, partial or skipped, cut at its own position',
  requires: ['audioOutput', 'responseRequests', 'compoundResponses'],
  exercises: ['messageTruncation', 'mutableChatContext'],
  async run(harness) {
    await withSession(
      harness,
      new Agent({ name: 'Chatterbox' }),
      async (session, events) => {
        await session.connect();
        const message = (text: string, audioMs: number) => ({ type: 'message' as const, text, audioMs });
        await harness.respondWith(
          { output: [message('First part.', 300), message('Second part.', 500)], hold: true },
          { output: [message('Third part.', 300), message('Fourth part.', 300)], hold: true },
        );
        const first = await session.generateResponse();
        await events.waitFor('audio_done', (e) => e.responseId === first, 2);
        const [a, b] = events
          .of('audio_done')
          .filter((e) => e.responseId === first)
          .map((e) => e.itemId) as [string, string];
        session.playback.finished(a);
        session.playback.played(b, 200);
        session.interrupt();
        await events.waitFor('response_done', (e) => e.responseId === first);

        const second = await session.generateResponse();
        await events.waitFor('audio_done', (e) => e.responseId === second, 2);
        const [c, d] = events
          .of('audio_done')
          .filter((e) => e.responseId === second)
          .map((e) => e.itemId) as [string, string];
        session.playback.played(c, 100);
        session.interrupt();
        await events.waitFor('response_done', (e) => e.responseId === second);

        const { messageTruncation, mutableChatContext } = harness.model.capabilities;
        await contextEdits(harness, messageTruncation ? 3 : 0, mutableChatContext ? 1 : 0);
        const commands = await harness.commands();
        expect(commandsOf(commands, 'truncateItem').map((t) => [t.itemId, t.heardMs])).toEqual(
          messageTruncation
            ? [
                [b, 200],
                [c, 100],
                [d, 0],
              ]
            : [],
        );
        expect(commandsOf(commands, 'deleteItem')).toEqual(
          mutableChatContext ? [{ type: 'deleteItem', itemId: d }] : [],
        );
        expect(events.of('audio_interrupted')).toEqual([
          { type: 'audio_interrupted', responseId: first, itemId: b, heardMs: 200 },
          { type: 'audio_interrupted', responseId: second, itemId: c, heardMs: 100 },
        ]);
        const messages = session.history.filter((i) => i.type === 'message');
        expect(messages.map((m) => [m.itemId, m.interrupted])).toEqual([
          [a, false],
          [b, true],
          [c, true],
        ]);
        if (mutableChatContext) {
          await events.waitFor('history_removed', (e) => e.itemId === d);
          const remembered = (await harness.conversation()).map((i) => i.itemId);
          expect(remembered).toEqual(expect.arrayContaining([a, b, c]));
          expect(remembered).not.toContain(d);
        }
        expect(events.of('warning').map((w) => [w.code, w.itemId])).toEqual(
          messageTruncation
            ? []
            : [
                ['message_not_truncated', b],
                ['message_not_truncated', c],
              ],
        );
        await roundTrip(harness, session, events);
        expect(events.of('error')).toEqual([]);
      },
      reported(),
    );
  },
};
