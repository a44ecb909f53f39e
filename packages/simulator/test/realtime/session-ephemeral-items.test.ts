import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession } from '@parley/core';
import { createHold } from '@parley/simulator';
import { expect, test } from 'vitest';
import { modelFor, simulator } from './helpers.js';

test('an ephemeral response announced by conversation.item.added early, twice and late stays out of history', async () => {
  const sim = await simulator();
  const hold = createHold('before the output');
  sim.script([{ type: 'hold', hold }, 'Your code is 4711.'], 'Anything else?');
  const session = new RealtimeSession(new Agent({ name: 'Teller' }), {
    model: modelFor(sim),
    config: { outputModalities: ['text'] },
  });
  const log = new EventRecorder(session);
  await session.connect();
  const server = await sim.waitForConnection();
  const item = {
    id: 'item_oob',
    object: 'realtime.item',
    type: 'message',
    role: 'assistant',
    status: 'in_progress',
    content: [],
  };
  const announce = (announced: object) =>
    server.send({ type: 'conversation.item.added', previous_item_id: null, item: announced });

  const reply = session.generateResponse({ addToHistory: false });
  // Written before the service even read the response.create: it reaches the client before response.created.
  announce(item);
  const responseId = await reply;
  await hold.reached;
  announce(item);
  server.send({ type: 'response.output_item.added', response_id: responseId, output_index: 0, item });
  const done = { ...item, status: 'completed', content: [{ type: 'output_text', text: 'Injected.' }] };
  server.send({ type: 'response.output_item.done', response_id: responseId, output_index: 0, item: done });
  hold.release();
  await reply.done;
  announce(done);
  // A conversation reply after it: every event before it has arrived once it is done.
  const next = session.generateResponse();
  await next.done;
  await log.waitFor('history_updated', (e) => e.item.type === 'message' && e.item.text === 'Anything else?');

  const types = log.types();
  expect(types.indexOf('response_started')).toBeGreaterThan(-1);
  const named = log.events.filter(
    (e) =>
      ((e.type === 'history_added' || e.type === 'history_updated') && e.item.itemId === 'item_oob') ||
      (e.type === 'history_removed' && e.itemId === 'item_oob'),
  );
  expect(named).toEqual([]);
  expect(session.history.map((i) => (i.type === 'message' ? `${i.role}:${i.text}` : i.type))).toEqual([
    'assistant:Anything else?',
  ]);
  expect(log.of('error')).toEqual([]);
  await session.close();
});
