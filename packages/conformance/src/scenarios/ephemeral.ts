import {
  Agent,
  EphemeralResponseInFlightError,
  type RealtimeSession,
  type RealtimeSessionEvent,
  tool,
} from '@parley/core';
import { expect } from 'vitest';
import { z } from 'zod';
import type { HarnessResponse, RealtimeHarness } from '../harness.js';
import { type ConformanceScenario, ScenarioSkippedError } from '../scenario.js';
import { commandsOf, type EventRecorder, withSession } from '../support.js';

const CODE_INSTRUCTIONS = 'Read the confirmation code 4 7 1 1 to the user.';
const CODE_SPEECH = 'Your confirmation code is 4 7 1 1.';

/** An agent with a tool, so "tools off" is visible on the wire. */
function agentWithTool(): Agent {
  const lookup = tool({
    name: 'lookup_order',
    description: 'Looks an order up',
    parameters: z.object({ id: z.string() }),
    execute: ({ id }) => `order ${id}`,
  });
  return new Agent({ name: 'Concierge', instructions: 'Help with orders.', tools: [lookup] });
}

/** A scripted response that says `text`. */
function says(text: string): HarnessResponse {
  return { output: [{ type: 'message', text }] };
}

/** Connects and has one ordinary exchange, so that the history and the provider's conversation are not empty. */
async function greet(
  harness: RealtimeHarness,
  session: RealtimeSession,
  events: EventRecorder,
): Promise<void> {
  await session.connect();
  await harness.respondWith(says('Hello! How can I help?'));
  session.sendMessage('Hi there.');
  await events.waitFor('response_done');
}

/** Events other than the playback of `responseId` that mention `text`. */
function leaks(events: EventRecorder, responseId: string, text: string): RealtimeSessionEvent[] {
  const playback = new Set(['audio', 'transcript_delta', 'text_delta']);
  return events.events.filter((event) => {
    if (playback.has(event.type) && 'responseId' in event && event.responseId === responseId) return false;
    const json = JSON.stringify(event, (key, value) =>
      key === 'agent' || key === 'error' || value instanceof Uint8Array ? undefined : value,
    );
    return json.includes(text);
  });
}

/** An ephemeral response is heard but remembered by nobody: not the history, not the provider. */
export const ephemeralIsolationScenario: ConformanceScenario = {
  name: 'ephemeral response: spoken out of band with tools off; history and the provider conversation are unchanged',
  requires: ['ephemeralResponse', 'responseRequests'],
  async run(harness) {
    await withSession(harness, agentWithTool(), async (session, events) => {
      await greet(harness, session, events);
      const historyBefore = session.history;
      const conversationBefore = await harness.conversation();
      const eventsBefore = events.events.length;

      await harness.respondWith(says(CODE_SPEECH));
      const response = session.generateResponse({ instructions: CODE_INSTRUCTIONS, addToHistory: false });
      const responseId = await response;
      expect(await response.done).toEqual({ responseId, status: 'completed' });
      await events.waitFor('response_done', (e) => e.responseId === responseId);

      const [create] = commandsOf(await harness.commands(), 'createResponse').filter(
        (c) => c.clientRequestId === response.clientRequestId,
      );
      expect(create).toMatchObject({
        ephemeral: true,
        instructions: CODE_INSTRUCTIONS,
        tools: [],
        toolChoice: 'none',
      });
      expect(events.of('response_started').at(-1)).toMatchObject({ responseId, ephemeral: true });
      expect(events.spokenText(responseId)).toBe(CODE_SPEECH);
      expect(session.history).toEqual(historyBefore);
      expect(await harness.conversation()).toEqual(conversationBefore);
      const later = events.events.slice(eventsBefore);
      expect(later.filter((e) => e.type.startsWith('history_'))).toEqual([]);
      expect(leaks(events, responseId, 'confirmation code')).toEqual([]);
      expect(events.of('warning')).toEqual([]);
      expect(events.of('error')).toEqual([]);
    });
  },
};

/** One ephemeral response at a time; ordinary responses are not held up by it. */
export const concurrentEphemeralScenario: ConformanceScenario = {
  name: 'ephemeral response: a second one while the first is in flight is refused with a typed error; ordinary responses go on',
  requires: ['ephemeralResponse', 'responseRequests'],
  async run(harness) {
    await withSession(harness, agentWithTool(), async (session, events) => {
      await session.connect();
      await harness.respondWith(
        { ...says(CODE_SPEECH), hold: true },
        says('An ordinary answer.'),
        says('A later ephemeral response.'),
      );
      const first = session.generateResponse({ instructions: CODE_INSTRUCTIONS, addToHistory: false });
      const firstId = await first;
      const second = session.generateResponse({ instructions: 'Say something else.', addToHistory: false });
      const error = await second.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EphemeralResponseInFlightError);
      expect(error).toMatchObject({
        code: 'ephemeral_response_in_flight',
        inFlightRequestId: first.clientRequestId,
        inFlightResponseId: firstId,
      });
      expect((error as EphemeralResponseInFlightError).ageMs).toBeGreaterThanOrEqual(0);
      expect((error as Error).message).toContain(first.clientRequestId);
      expect((error as Error).message).toContain(firstId);
      await expect(second.done).rejects.toBe(error);
      await events.waitFor('error');
      expect(events.of('error')).toEqual([
        expect.objectContaining({ source: 'session', code: 'ephemeral_response_in_flight' }),
      ]);

      const ordinary = session.generateResponse();
      expect((await ordinary.done).status).toBe('completed');
      expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'An ordinary answer.' });

      await harness.finishResponse();
      expect((await first.done).status).toBe('completed');
      const third = session.generateResponse({ instructions: 'Say it later.', addToHistory: false });
      expect((await third.done).status).toBe('completed');
      const creates = commandsOf(await harness.commands(), 'createResponse');
      expect(creates.map((c) => c.ephemeral)).toEqual([true, false, true]);
    });
  },
};

/** `interrupt()` stops an ephemeral response by its response id. */
export const ephemeralCancelScenario: ConformanceScenario = {
  name: 'ephemeral response: interrupt() cancels it by its response id and frees the slot',
  requires: ['ephemeralResponse', 'responseRequests'],
  async run(harness) {
    await withSession(harness, agentWithTool(), async (session, events) => {
      await session.connect();
      await harness.respondWith({ ...says(CODE_SPEECH), hold: true }, says('Once more.'));
      const response = session.generateResponse({ instructions: CODE_INSTRUCTIONS, addToHistory: false });
      const responseId = await response;
      if (harness.model.capabilities.audioOutput) {
        await events.waitFor('audio_done', (e) => e.responseId === responseId);
      } else {
        await events.waitFor('text_delta', (e) => e.responseId === responseId);
      }
      const historyBefore = session.history;
      session.interrupt();
      expect(await response.done).toEqual({ responseId, status: 'cancelled' });
      await events.waitFor('response_done', (e) => e.responseId === responseId);
      const commands = await harness.commands();
      expect(commandsOf(commands, 'cancelResponse')).toEqual([{ type: 'cancelResponse', responseId }]);
      expect(commands.filter((c) => c.type === 'truncateItem' || c.type === 'deleteItem')).toEqual([]);
      expect(events.of('response_done').at(-1)).toMatchObject({
        responseId,
        status: 'cancelled',
        ephemeral: true,
      });
      if (harness.model.capabilities.audioOutput) {
        expect(events.of('audio_interrupted')).toEqual([expect.objectContaining({ responseId })]);
      }
      expect(session.history).toEqual(historyBefore);
      const again = session.generateResponse({ instructions: 'Say once more.', addToHistory: false });
      expect((await again.done).status).toBe('completed');
      expect(events.of('error')).toEqual([]);
    });
  },
};

/** The item ids a response's playback (audio, transcript or text deltas) named. */
function itemIdsOf(events: EventRecorder, responseId: string): string[] {
  const ids = events.events.flatMap((e) =>
    (e.type === 'audio' || e.type === 'transcript_delta' || e.type === 'text_delta') &&
    e.responseId === responseId
      ? [e.itemId]
      : [],
  );
  return [...new Set(ids)];
}

/** History events (added, updated, removed) that name one of `itemIds`. */
function historyEventsOf(events: EventRecorder, itemIds: readonly string[]): RealtimeSessionEvent[] {
  return events.events.filter(
    (e) =>
      ((e.type === 'history_added' || e.type === 'history_updated') && itemIds.includes(e.item.itemId)) ||
      (e.type === 'history_removed' && itemIds.includes(e.itemId)),
  );
}

/**
 * The provider may announce an ephemeral response's item before the response's output links it to the response: the
 * item still never enters the history, the response still delivers its output, and a conversation response after it
 * (announced early too) is remembered as usual.
 */
export const ephemeralEarlyItemsScenario: ConformanceScenario = {
  name: 'ephemeral response: items announced before its output links them stay out of history; later responses are remembered',
  requires: ['ephemeralResponse', 'responseRequests'],
  async run(harness) {
    if (!harness.respondAnnouncingItemsEarly) {
      throw new ScenarioSkippedError(
        `the harness of provider "${harness.model.provider}" cannot announce a response's items before linking them (no respondAnnouncingItemsEarly())`,
      );
    }
    await withSession(harness, agentWithTool(), async (session, events) => {
      await greet(harness, session, events);
      const historyBefore = session.history;
      const conversationBefore = await harness.conversation();

      await harness.respondAnnouncingItemsEarly?.(says(CODE_SPEECH));
      const ephemeral = session.generateResponse({ instructions: CODE_INSTRUCTIONS, addToHistory: false });
      const ephemeralId = await ephemeral;
      expect(await ephemeral.done).toEqual({ responseId: ephemeralId, status: 'completed' });
      await events.waitFor('response_done', (e) => e.responseId === ephemeralId);
      expect(events.spokenText(ephemeralId)).toBe(CODE_SPEECH);
      const ephemeralItems = itemIdsOf(events, ephemeralId);
      expect(ephemeralItems).toHaveLength(1);
      expect(session.history).toEqual(historyBefore);
      expect(await harness.conversation()).toEqual(conversationBefore);

      const ANSWER = 'Anything else I can do?';
      await harness.respondAnnouncingItemsEarly?.(says(ANSWER));
      const ordinary = session.generateResponse();
      const ordinaryId = await ordinary;
      expect((await ordinary.done).status).toBe('completed');
      await events.waitFor('response_done', (e) => e.responseId === ordinaryId);
      const [answerId] = itemIdsOf(events, ordinaryId);
      expect(session.history.slice(0, historyBefore.length)).toEqual(historyBefore);
      expect(session.history.slice(historyBefore.length)).toEqual([
        expect.objectContaining({
          itemId: answerId,
          role: 'assistant',
          text: ANSWER,
          responseId: ordinaryId,
        }),
      ]);
      expect(historyEventsOf(events, ephemeralItems)).toEqual([]);
      expect(session.history.some((item) => ephemeralItems.includes(item.itemId))).toBe(false);
      expect(leaks(events, ephemeralId, 'confirmation code')).toEqual([]);
      expect(events.of('error')).toEqual([]);
    });
  },
};
