import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession, tool } from '@parley/core';
import { flushMicrotasks, MockRealtimeModel } from '@parley/mock';
import { expect, test } from 'vitest';
import { z } from 'zod';

const clock = tool({
  name: 'clock',
  description: 'The time',
  parameters: z.object({}),
  execute: () => '12:00',
});
const agent = new Agent({ name: 'Timekeeper', tools: [clock] });

test('history mirrors the conversation: messages with text, function calls with their outputs', async () => {
  const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
  const session = new RealtimeSession(agent, { model });
  const log = new EventRecorder(session);
  model.respondWith(
    { output: [{ type: 'function_call', name: 'clock', callId: 'c1' }] },
    { output: [{ type: 'message', text: 'It is noon.' }] },
  );
  await session.connect();
  session.sendMessage('What time is it?');
  await flushMicrotasks();
  expect(session.history).toEqual([
    expect.objectContaining({ type: 'message', role: 'user', text: 'What time is it?', status: 'completed' }),
    expect.objectContaining({
      type: 'function_call',
      callId: 'c1',
      name: 'clock',
      arguments: '{}',
      output: '12:00',
      status: 'completed',
      agentName: 'Timekeeper',
    }),
    expect.objectContaining({
      type: 'message',
      role: 'assistant',
      text: 'It is noon.',
      hasAudio: true,
      status: 'completed',
      interrupted: false,
      agentName: 'Timekeeper',
    }),
  ]);
  expect(log.of('history_added').map((e) => e.item.type)).toEqual(['message', 'function_call', 'message']);
  const updates = log.of('history_updated');
  expect(updates.find((e) => e.item.type === 'function_call')?.item).toMatchObject({ output: '12:00' });
  expect(updates.filter((e) => e.item.type === 'message').at(-1)?.item).toMatchObject({
    text: 'It is noon.',
  });
  await session.close();
});

test('history items are read-only snapshots', async () => {
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(agent, { model });
  await session.connect();
  session.sendMessage('hi', { respond: false });
  await flushMicrotasks();
  const history = session.history;
  expect(Object.isFrozen(history)).toBe(true);
  expect(Object.isFrozen(history[0])).toBe(true);
  expect(() => {
    (history as unknown[]).push({});
  }).toThrow(TypeError);
  expect(() => {
    (history[0] as { text: string }).text = 'changed';
  }).toThrow(TypeError);
  expect(session.history[0]).toMatchObject({ text: 'hi' });
  await session.close();
});

test('deleted provider items leave the history', async () => {
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(agent, { model });
  const log = new EventRecorder(session);
  await session.connect();
  session.sendMessage('forget me', { respond: false });
  await flushMicrotasks();
  const itemId = session.history[0]!.itemId;
  model.connection.send({ type: 'deleteItem', itemId });
  await flushMicrotasks();
  expect(session.history).toEqual([]);
  expect(log.of('history_removed')).toEqual([{ type: 'history_removed', itemId }]);
  await session.close();
});

test('items of an out-of-band response never enter the history', async () => {
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(agent, { model });
  const log = new EventRecorder(session);
  await session.connect();
  const c = model.connection;
  c.emit({ type: 'response_started', responseId: 'oob', ephemeral: true });
  c.emit({ type: 'message_started', responseId: 'oob', itemId: 'oob_item' });
  c.emit({ type: 'transcript_delta', responseId: 'oob', itemId: 'oob_item', delta: 'Code 4711' });
  c.emit({
    type: 'message_done',
    responseId: 'oob',
    itemId: 'oob_item',
    item: {
      type: 'message',
      itemId: 'oob_item',
      role: 'assistant',
      content: [{ type: 'audio', transcript: 'Code 4711' }],
    },
  });
  c.emit({ type: 'response_done', responseId: 'oob', status: 'completed', ephemeral: true });
  await flushMicrotasks();
  expect(session.history).toEqual([]);
  expect(log.of('history_added')).toEqual([]);
  expect(log.of('transcript_delta')).toHaveLength(1);
  await session.close();
});

test('a final transcript equal to its deltas is still published as history_updated', async () => {
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(agent, { model });
  const log = new EventRecorder(session);
  await session.connect();
  const c = model.connection;
  c.emit({ type: 'response_started', responseId: 'r1', ephemeral: false });
  c.emit({ type: 'message_started', responseId: 'r1', itemId: 'a1' });
  c.emit({ type: 'audio_delta', responseId: 'r1', itemId: 'a1', audio: new Uint8Array(96) });
  c.emit({ type: 'transcript_delta', responseId: 'r1', itemId: 'a1', delta: 'Hello ' });
  c.emit({ type: 'transcript_delta', responseId: 'r1', itemId: 'a1', delta: 'there' });
  // The final transcript changes nothing the deltas did not already set silently.
  c.emit({ type: 'transcript_done', responseId: 'r1', itemId: 'a1', transcript: 'Hello there' });
  await flushMicrotasks();
  const updates = log.of('history_updated').filter((e) => e.item.itemId === 'a1');
  expect(updates).toHaveLength(1);
  expect(updates[0]?.item).toMatchObject({ text: 'Hello there', hasAudio: true, status: 'in_progress' });
  await session.close();
});
