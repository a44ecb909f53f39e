import { EventRecorder } from '@parley/conformance';
import { Agent, type RealtimeEvent, RealtimeSession } from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';

/** How a provider announces an assistant item (OpenAI: `conversation.item.added`). */
function announce(itemId: string, previousItemId: string | null = null): RealtimeEvent {
  return {
    type: 'item_added',
    item: { type: 'message', itemId, role: 'assistant', content: [], status: 'in_progress' },
    previousItemId,
  };
}

async function setup() {
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(new Agent({ name: 'Teller' }), { model, clock: new ManualClock() });
  const log = new EventRecorder(session);
  await session.connect();
  return { model, session, log };
}

/** Every history event that names `itemId`. */
function historyEventsOf(log: EventRecorder, itemId: string) {
  return log.events.filter(
    (e) =>
      ((e.type === 'history_added' || e.type === 'history_updated') && e.item.itemId === itemId) ||
      (e.type === 'history_removed' && e.itemId === itemId),
  );
}

describe('ephemeral items stay out of history, whenever the provider announces them', () => {
  test('announced before the response started (and again after it ended)', async () => {
    const { model, session, log } = await setup();
    model.respondWith({ output: [{ type: 'message', itemId: 'item_oob', text: 'Your code is 4711.' }] });
    // The announcement reaches the session after the request, before response_started.
    model.connection.emit(announce('item_oob'));
    const reply = session.generateResponse({ addToHistory: false });
    await reply.done;
    await flushMicrotasks();
    // Twice, late: after the response ended.
    model.connection.emit(announce('item_oob'));
    await flushMicrotasks();
    expect(log.of('transcript_delta').map((e) => e.itemId)).toContain('item_oob');
    expect(historyEventsOf(log, 'item_oob')).toEqual([]);
    expect(session.history).toEqual([]);
    await session.close();
  });

  test('announced after the response started, before its output item links it', async () => {
    const { model, session, log } = await setup();
    model.respondWith({
      output: [{ type: 'pause' }, { type: 'message', itemId: 'item_oob', text: 'Out of band.' }],
    });
    const reply = session.generateResponse({ addToHistory: false });
    await reply;
    model.connection.emit(announce('item_oob'));
    model.connection.emit(announce('item_oob'));
    await flushMicrotasks();
    expect(session.history).toEqual([]);
    model.connection.resume();
    await reply.done;
    await flushMicrotasks();
    expect(historyEventsOf(log, 'item_oob')).toEqual([]);
    expect(session.history).toEqual([]);
    await session.close();
  });

  test('never linked: dropped when the ephemeral response ends; later announcements enter history as before', async () => {
    const { model, session, log } = await setup();
    model.respondWith({ output: [{ type: 'pause' }, { type: 'message', text: 'Out of band.' }] });
    const reply = session.generateResponse({ addToHistory: false });
    await reply;
    model.connection.emit(announce('item_orphan'));
    await flushMicrotasks();
    model.connection.resume();
    await reply.done;
    await flushMicrotasks();
    expect(historyEventsOf(log, 'item_orphan')).toEqual([]);
    // With no out-of-band response pending, an announced item is applied at once, as always.
    model.connection.emit(announce('item_later'));
    await flushMicrotasks();
    expect(session.history.map((i) => i.itemId)).toEqual(['item_later']);
    await session.close();
  });

  test('a conversation response beside it: its early-announced item still enters history, in its place', async () => {
    const { model, session, log } = await setup();
    model.respondWith(
      { output: [{ type: 'pause' }, { type: 'message', itemId: 'item_oob', text: 'Out of band.' }] },
      { output: [{ type: 'message', itemId: 'item_conv', text: 'In the conversation.' }] },
    );
    const ephemeral = session.generateResponse({ addToHistory: false });
    await ephemeral;
    model.connection.emit(announce('item_conv'));
    const conversational = session.generateResponse();
    await conversational.done;
    await flushMicrotasks();
    expect(session.history).toEqual([
      expect.objectContaining({ itemId: 'item_conv', role: 'assistant', text: 'In the conversation.' }),
    ]);
    model.connection.resume();
    await ephemeral.done;
    await flushMicrotasks();
    expect(historyEventsOf(log, 'item_oob')).toEqual([]);
    expect(session.history.map((i) => i.itemId)).toEqual(['item_conv']);
    await session.close();
  });
});
