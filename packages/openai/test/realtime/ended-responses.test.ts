import { describe, expect, test } from 'vitest';
import { connectFake } from './fake-socket.js';

/**
 * The service's `response.created` and `response.done` may arrive in any order, twice, or not at all: nothing the
 * adapter keeps for a response outlives its end, and nothing it keeps is reset by a repeated start.
 */

const created = (id: string, requestId?: string) =>
  JSON.stringify({
    type: 'response.created',
    response: {
      id,
      object: 'realtime.response',
      status: 'in_progress',
      conversation_id: 'conv_1',
      ...(requestId !== undefined && { metadata: { parley_request_id: requestId } }),
    },
  });

const done = (id: string, requestId?: string) =>
  JSON.stringify({
    type: 'response.done',
    response: {
      id,
      object: 'realtime.response',
      status: 'completed',
      conversation_id: 'conv_1',
      output: [],
      ...(requestId !== undefined && { metadata: { parley_request_id: requestId } }),
    },
  });

/** A collision refusal that names no request (`event_id: null`), as when the refused request carried none. */
const collision = JSON.stringify({
  type: 'error',
  error: {
    type: 'invalid_request_error',
    code: 'conversation_already_has_active_response',
    message: 'Conversation already has an active response in progress.',
    param: null,
    event_id: null,
  },
});

const call = {
  id: 'item_call',
  type: 'function_call',
  status: 'completed',
  name: 'lookup',
  call_id: 'call_1',
  arguments: '{"key":"a"}',
};

describe('nothing is kept for a response that ended, whatever the order of its start and end', () => {
  test('done before created (the created never comes): its request is answered, a later collision names the new request', async () => {
    const { connection, eventsOf } = await connectFake();
    connection.send({ type: 'createResponse', clientRequestId: 'req_1', ephemeral: false });
    expect(eventsOf(done('resp_1', 'req_1'))).toMatchObject([
      { type: 'response_done', responseId: 'resp_1', clientRequestId: 'req_1' },
    ]);
    connection.send({ type: 'createResponse', clientRequestId: 'req_2', ephemeral: false });
    expect(eventsOf(collision)).toMatchObject([
      {
        type: 'error',
        code: 'conversation_already_has_active_response',
        clientRequestId: 'req_2',
        commandType: 'createResponse',
      },
    ]);
  });

  test('done before created: the late start is reported, and a later collision still names the right request', async () => {
    const { connection, eventsOf } = await connectFake();
    connection.send({ type: 'createResponse', clientRequestId: 'req_1', ephemeral: false });
    eventsOf(done('resp_1', 'req_1'));
    expect(eventsOf(created('resp_1', 'req_1'))).toMatchObject([
      { type: 'response_started', responseId: 'resp_1', clientRequestId: 'req_1' },
    ]);
    connection.send({ type: 'createResponse', clientRequestId: 'req_2', ephemeral: false });
    expect(eventsOf(collision)).toMatchObject([{ type: 'error', clientRequestId: 'req_2' }]);
  });

  test('created twice: the repeated start does not reset what was reported, a call is reported once', async () => {
    const { eventsOf } = await connectFake();
    eventsOf(created('resp_1'));
    const first = eventsOf(
      JSON.stringify({
        type: 'response.output_item.done',
        response_id: 'resp_1',
        output_index: 0,
        item: call,
      }),
    );
    expect(first).toMatchObject([{ type: 'function_call', callId: 'call_1', responseId: 'resp_1' }]);
    expect(eventsOf(created('resp_1'))).toMatchObject([{ type: 'response_started', responseId: 'resp_1' }]);
    const again = eventsOf(
      JSON.stringify({
        type: 'response.function_call_arguments.done',
        response_id: 'resp_1',
        item_id: 'item_call',
        output_index: 0,
        call_id: 'call_1',
        name: 'lookup',
        arguments: '{"key":"a"}',
      }),
    );
    expect(again).toEqual([]);
    expect(eventsOf(done('resp_1'))).toMatchObject([{ type: 'response_done', responseId: 'resp_1' }]);
  });

  test('done twice: each is reported (the session ignores the second), and the response stays ended', async () => {
    const { connection, eventsOf } = await connectFake();
    connection.send({ type: 'createResponse', clientRequestId: 'req_1', ephemeral: false });
    eventsOf(created('resp_1', 'req_1'));
    expect(eventsOf(done('resp_1', 'req_1'))).toMatchObject([
      { type: 'response_done', clientRequestId: 'req_1' },
    ]);
    expect(eventsOf(done('resp_1', 'req_1'))).toMatchObject([
      { type: 'response_done', clientRequestId: 'req_1' },
    ]);
    connection.send({ type: 'createResponse', clientRequestId: 'req_2', ephemeral: false });
    expect(eventsOf(collision)).toMatchObject([{ type: 'error', clientRequestId: 'req_2' }]);
  });
});

const lateItemAdded = (responseId: string, itemId: string) =>
  JSON.stringify({
    type: 'response.output_item.added',
    response_id: responseId,
    output_index: 0,
    item: { id: itemId, type: 'message', role: 'assistant', status: 'in_progress', content: [] },
  });

const itemAdded = (itemId: string) =>
  JSON.stringify({
    type: 'conversation.item.added',
    previous_item_id: null,
    item: {
      id: itemId,
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Hi.' }],
    },
  });

describe('an output item announced after its response ended is not kept', () => {
  test('a late output_item.added of an ended out-of-band response reports nothing', async () => {
    const { connection, eventsOf } = await connectFake();
    connection.send({ type: 'createResponse', clientRequestId: 'req_oob', ephemeral: true });
    eventsOf(created('resp_oob', 'req_oob'));
    eventsOf(done('resp_oob', 'req_oob'));
    expect(eventsOf(lateItemAdded('resp_oob', 'item_late'))).toEqual([]);
  });

  test('many late items (no conversation.item.added follows): none is remembered, a later item of the same id is reported as any other', async () => {
    const { eventsOf } = await connectFake();
    eventsOf(created('resp_ended'));
    eventsOf(done('resp_ended'));
    const late = Array.from({ length: 500 }, (_, i) => `item_late_${i}`);
    for (const itemId of late) eventsOf(lateItemAdded('resp_ended', itemId));
    // Had any late item been kept as a response output, its conversation.item.added would be swallowed.
    const reported = late.flatMap((itemId) => eventsOf(itemAdded(itemId)));
    expect(reported.map((e) => (e.type === 'item_added' ? e.item.itemId : e.type))).toEqual(late);
  });

  test('an item of a response still running is reported by its message events, not again as item_added', async () => {
    const { eventsOf } = await connectFake();
    eventsOf(created('resp_live'));
    expect(eventsOf(lateItemAdded('resp_live', 'item_live'))).toMatchObject([
      { type: 'message_started', responseId: 'resp_live', itemId: 'item_live' },
    ]);
    expect(eventsOf(itemAdded('item_live'))).toEqual([]);
  });
});
