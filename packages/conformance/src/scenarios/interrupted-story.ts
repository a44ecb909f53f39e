import type { RealtimeSession } from '@parley/core';
import type { RealtimeHarness } from '../harness.js';
import { audioMsOf, type EventRecorder } from '../support.js';

/** What the story's listener is told: 1 s of speech, held once 600 ms of it went out. */
export const STORY = {
  type: 'message',
  text: 'Once upon a time there was a very long story.',
  audioMs: 1000,
  holdAfterMs: 600,
} as const;

/**
 * The interruption scenarios' opening: the model tells {@link STORY} in answer to a response request; once 600 ms of
 * its audio arrived the app reports `playedMs` of it heard and calls `interrupt()` (`times` times, in the same turn).
 * Resolves with the response's and the message's ids, the interrupts made (the response's end is the scenario's to
 * wait for).
 */
export async function interruptStory(
  harness: RealtimeHarness,
  session: RealtimeSession,
  events: EventRecorder,
  options: { playedMs: number; times?: number },
): Promise<{ responseId: string; itemId: string }> {
  await harness.respondWith({ output: [{ ...STORY }] });
  const responseId = await session.generateResponse();
  const { itemId } = await events.waitFor('audio', (e) => e.responseId === responseId);
  await events.waitFor('audio', (e) => e.itemId === itemId && audioMsOf(events, itemId) >= STORY.holdAfterMs);
  session.playback.played(itemId, options.playedMs);
  for (let i = 0; i < (options.times ?? 1); i++) session.interrupt();
  return { responseId, itemId };
}
