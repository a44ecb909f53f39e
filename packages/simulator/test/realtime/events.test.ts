import type { RealtimeCommand, RealtimeEvent } from '@parley/core';
import { describe, expect, test } from 'vitest';
import { connected, EventLog, modelFor, simulator } from './helpers.js';

const userText = (text: string): RealtimeCommand => ({
  type: 'createItem',
  item: { type: 'message', role: 'user', content: [{ type: 'text', text }] },
});

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

describe('event normalization (GA)', () => {
  test('an audio turn: started, message, transcript and audio deltas keyed by ids, done', async () => {
    const { connection, log, server } = await connected({ msPerChar: 20, chunkMs: 100 });
    connection.send(userText('Hello'));
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    const done = await log.waitFor('response_done');
    const started = log.ofType('response_started')[0];
    expect(started).toEqual({
      type: 'response_started',
      responseId: done.responseId,
      clientRequestId: 'r1',
      ephemeral: false,
    });
    const message = log.ofType('message_started')[0];
    expect(message).toEqual({
      type: 'message_started',
      responseId: done.responseId,
      itemId: expect.any(String),
    });
    const itemId = message?.itemId;
    expect(
      log
        .ofType('transcript_delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('You said: Hello');
    expect(log.ofType('transcript_done')).toEqual([
      { type: 'transcript_done', responseId: done.responseId, itemId, transcript: 'You said: Hello' },
    ]);
    const audio = log.ofType('audio_delta');
    expect(audio.every((e) => e.responseId === done.responseId && e.itemId === itemId)).toBe(true);
    const wireAudio = server.serverEvents
      .filter((e) => e.type === 'response.output_audio.delta')
      .map((e) => new Uint8Array(Buffer.from(e.delta as string, 'base64')));
    expect(audio.length).toBe(wireAudio.length);
    expect(concat(audio.map((e) => e.audio))).toEqual(concat(wireAudio));
    expect(concat(wireAudio).length).toBe('You said: Hello'.length * 20 * 48);
    expect(log.ofType('audio_done')).toEqual([{ type: 'audio_done', responseId: done.responseId, itemId }]);
    expect(log.ofType('message_done')).toEqual([
      {
        type: 'message_done',
        responseId: done.responseId,
        itemId,
        item: {
          type: 'message',
          itemId,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'audio', transcript: 'You said: Hello' }],
        },
      },
    ]);
    expect(done).toEqual({
      type: 'response_done',
      responseId: done.responseId,
      status: 'completed',
      ephemeral: false,
      clientRequestId: 'r1',
      usage: {
        inputTokens: expect.any(Number),
        outputTokens: expect.any(Number),
        totalTokens: expect.any(Number),
        inputTokenDetails: {
          textTokens: expect.any(Number),
          audioTokens: expect.any(Number),
          cachedTokens: expect.any(Number),
        },
        outputTokenDetails: { textTokens: expect.any(Number), audioTokens: expect.any(Number) },
      },
    });
    // Only the user item is reported as added: the assistant's is reported by message_started/message_done.
    expect(
      log.ofType('item_added').map((e) => [e.item.type, e.item.type === 'message' && e.item.role]),
    ).toEqual([['message', 'user']]);
    expect(log.ofType('item_added')[0]).toEqual({
      type: 'item_added',
      previousItemId: null,
      item: {
        type: 'message',
        itemId: expect.any(String),
        role: 'user',
        status: 'completed',
        content: [{ type: 'text', text: 'Hello' }],
      },
    });
  });

  test('a function call is reported once, with the response id, from the GA events', async () => {
    const { connection, log, sim } = await connected();
    sim.script({ type: 'function_call', name: 'get_weather', arguments: { city: 'Oslo' }, callId: 'call_w' });
    connection.send(userText('Weather?'));
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    const done = await log.waitFor('response_done');
    expect(log.ofType('function_call')).toEqual([
      {
        type: 'function_call',
        responseId: done.responseId,
        itemId: expect.any(String),
        callId: 'call_w',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
      },
    ]);
    expect(log.ofType('item_added').map((e) => e.item.type)).toEqual(['message']);
    const callIndex = log.events.findIndex((e) => e.type === 'function_call');
    expect(callIndex).toBeLessThan(log.events.indexOf(done));
  });

  test('an out-of-band response: conversation none, nothing enters the conversation', async () => {
    const { connection, log, server } = await connected({}, {}, { outputModalities: ['text'] });
    connection.send(userText('Hi'));
    await log.waitFor('item_added');
    connection.send({
      type: 'createResponse',
      clientRequestId: 'oob',
      ephemeral: true,
      instructions: 'Classify',
      tools: [],
    });
    const done = await log.waitFor('response_done');
    expect(log.ofType('response_started')[0]).toMatchObject({ ephemeral: true, clientRequestId: 'oob' });
    expect(done).toMatchObject({ ephemeral: true, clientRequestId: 'oob', status: 'completed' });
    expect(log.ofType('item_added')).toHaveLength(1);
    expect(server.conversation.items).toHaveLength(1);
    expect(log.ofType('message_done')[0]?.item).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'You said: Hi' }],
    });
  });

  test('a response the server started (VAD) has no clientRequestId and is in the default conversation', async () => {
    const { log, server } = await connected();
    server.send({
      type: 'response.created',
      response: { id: 'resp_x', status: 'in_progress', conversation_id: 'conv_1', metadata: null },
    });
    server.send({
      type: 'response.done',
      response: {
        id: 'resp_x',
        status: 'cancelled',
        status_details: { type: 'cancelled', reason: 'turn_detected' },
        conversation_id: 'conv_1',
      },
    });
    const done = await log.waitFor('response_done');
    expect(log.ofType('response_started')).toEqual([
      { type: 'response_started', responseId: 'resp_x', ephemeral: false },
    ]);
    expect(done).toEqual({
      type: 'response_done',
      responseId: 'resp_x',
      status: 'cancelled',
      ephemeral: false,
      reason: 'user_turn',
    });
  });

  test('a failed response reports provider_error as its reason, with the error code', async () => {
    const { connection, log, sim } = await connected();
    sim.script({ type: 'fail', code: 'inference_rate_limit_exceeded', message: 'slow down' });
    connection.send({ type: 'createResponse', clientRequestId: 'r', ephemeral: false });
    expect(await log.waitFor('response_done')).toMatchObject({
      status: 'failed',
      reason: 'provider_error',
      errorCode: 'inference_rate_limit_exceeded',
      clientRequestId: 'r',
    });
  });

  test('item deleted and truncated', async () => {
    const { connection, log, sim } = await connected({ msPerChar: 100 });
    sim.script('Long answer here');
    connection.send({ type: 'createResponse', clientRequestId: 'r', ephemeral: false });
    const { itemId } = await log.waitFor('message_done');
    connection.send({ type: 'truncateItem', itemId, heardMs: 250.7 });
    expect(await log.waitFor('item_truncated')).toEqual({ type: 'item_truncated', itemId, heardMs: 250 });
    connection.send({ type: 'deleteItem', itemId });
    expect(await log.waitFor('item_deleted')).toEqual({ type: 'item_deleted', itemId });
  });
});

describe('tolerance: beta names, spellings, unknown events, malformed frames', () => {
  test('beta event names and content spellings normalize like GA', async () => {
    const { log, server } = await connected();
    const ids = { response_id: 'resp_b', item_id: 'item_b', output_index: 0, content_index: 0 };
    server.send({ type: 'conversation.created', conversation: { id: 'conv_b' } });
    server.send({ type: 'response.created', response: { id: 'resp_b', status: 'in_progress' } });
    server.send({
      type: 'response.output_item.added',
      response_id: 'resp_b',
      output_index: 0,
      item: { id: 'item_b', type: 'message', role: 'assistant', content: [] },
    });
    server.send({
      type: 'conversation.item.created',
      previous_item_id: null,
      item: { id: 'item_b', type: 'message', role: 'assistant', content: [] },
    });
    server.send({
      type: 'response.content_part.added',
      ...ids,
      part: { type: 'output_audio', transcript: '' },
    });
    server.send({ type: 'response.audio_transcript.delta', ...ids, delta: 'Hi' });
    server.send({ type: 'response.audio.delta', ...ids, delta: 'AAECAw==' });
    server.send({ type: 'response.audio.done', ...ids });
    server.send({ type: 'response.audio_transcript.done', ...ids, transcript: 'Hi' });
    server.send({ type: 'response.text.delta', ...ids, delta: 'T' });
    server.send({
      type: 'response.output_item.done',
      response_id: 'resp_b',
      output_index: 0,
      item: {
        id: 'item_b',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [
          { type: 'audio', transcript: 'Hi' },
          { type: 'text', text: 'T' },
        ],
      },
    });
    server.send({ type: 'response.done', response: { id: 'resp_b', status: 'completed' } });
    server.send({
      type: 'conversation.item.created',
      previous_item_id: 'item_b',
      item: { id: 'u_b', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'ok' }] },
    });
    await log.waitFor('item_added');
    const since = log.events.findIndex((e) => e.type === 'response_started');
    expect(log.events.slice(since)).toEqual([
      { type: 'response_started', responseId: 'resp_b', ephemeral: false },
      { type: 'message_started', responseId: 'resp_b', itemId: 'item_b' },
      { type: 'transcript_delta', responseId: 'resp_b', itemId: 'item_b', delta: 'Hi' },
      { type: 'audio_delta', responseId: 'resp_b', itemId: 'item_b', audio: new Uint8Array([0, 1, 2, 3]) },
      { type: 'audio_done', responseId: 'resp_b', itemId: 'item_b' },
      { type: 'transcript_done', responseId: 'resp_b', itemId: 'item_b', transcript: 'Hi' },
      { type: 'text_delta', responseId: 'resp_b', itemId: 'item_b', delta: 'T' },
      {
        type: 'message_done',
        responseId: 'resp_b',
        itemId: 'item_b',
        item: {
          type: 'message',
          itemId: 'item_b',
          role: 'assistant',
          status: 'completed',
          content: [
            { type: 'audio', transcript: 'Hi' },
            { type: 'text', text: 'T' },
          ],
        },
      },
      { type: 'response_done', responseId: 'resp_b', status: 'completed', ephemeral: false },
      {
        type: 'item_added',
        previousItemId: 'item_b',
        item: { type: 'message', itemId: 'u_b', role: 'user', content: [{ type: 'text', text: 'ok' }] },
      },
    ]);
  });

  test('function_call_arguments.done and output_item.done report one call; an incomplete call is not reported', async () => {
    const { log, server } = await connected();
    server.send({ type: 'response.created', response: { id: 'resp_f', conversation_id: 'conv' } });
    server.send({
      type: 'response.output_item.added',
      response_id: 'resp_f',
      output_index: 0,
      item: { id: 'fc_1', type: 'function_call', name: 'lookup', call_id: 'c1', arguments: '' },
    });
    server.send({
      type: 'response.function_call_arguments.done',
      response_id: 'resp_f',
      item_id: 'fc_1',
      output_index: 0,
      call_id: 'c1',
      arguments: '{"q":1}',
    });
    server.send({
      type: 'response.output_item.done',
      response_id: 'resp_f',
      output_index: 0,
      item: {
        id: 'fc_1',
        type: 'function_call',
        name: 'lookup',
        call_id: 'c1',
        arguments: '{"q":1}',
        status: 'completed',
      },
    });
    server.send({
      type: 'response.output_item.done',
      response_id: 'resp_f',
      output_index: 1,
      item: {
        id: 'fc_2',
        type: 'function_call',
        name: 'lookup',
        call_id: 'c2',
        arguments: '{"q"',
        status: 'incomplete',
      },
    });
    server.send({ type: 'response.done', response: { id: 'resp_f', status: 'cancelled' } });
    await log.waitFor('response_done');
    expect(log.ofType('function_call')).toEqual([
      {
        type: 'function_call',
        responseId: 'resp_f',
        itemId: 'fc_1',
        callId: 'c1',
        name: 'lookup',
        arguments: '{"q":1}',
      },
    ]);
  });

  test('a frame that is not JSON is reported as an error and the connection keeps working', async () => {
    const { connection, log, server } = await connected();
    server.sendRaw('{"type": "response.created", oops');
    server.sendRaw('[1,2]');
    server.send({ type: 'some.future.event', whatever: { nested: true } });
    connection.send({ type: 'createResponse', clientRequestId: 'after', ephemeral: false });
    await log.waitFor('response_done');
    expect(log.ofType('error')).toEqual([
      { type: 'error', code: 'malformed_server_event', message: expect.stringMatching(/not JSON/) },
      {
        type: 'error',
        code: 'malformed_server_event',
        message: expect.stringMatching(/without a string "type"/),
      },
    ]);
    expect(connection.status).toBe('open');
  });

  test('extra fields are ignored; audio frames in another layout or with escapes decode the same', async () => {
    const { log, server } = await connected();
    const bytes = new Uint8Array([255, 254, 253, 0, 1]);
    const b64 = Buffer.from(bytes).toString('base64'); // contains '/'
    server.send({
      type: 'response.output_audio.delta',
      event_id: 'e1',
      response_id: 'r',
      item_id: 'i',
      output_index: 0,
      content_index: 0,
      delta: b64,
      obfuscation: 'xyz',
    });
    server.sendRaw(
      `{"type":"response.output_audio.delta","delta":"${b64.replace(/\//g, '\\/')}","item_id":"i","response_id":"r"}`,
    );
    server.sendRaw(
      `{"item_id":"i","type":"response.output_audio.delta","response_id":"r","delta":"${b64}","extra":{"a":[1]}}`,
    );
    server.sendRaw(
      ` {"type":"response.output_audio.delta","response_id":"r","item_id":"i","delta":"${b64}"} `,
    );
    await log.waitFor('audio_delta', 4);
    const deltas = log.ofType('audio_delta');
    expect(deltas).toHaveLength(4);
    for (const delta of deltas) {
      expect(delta).toEqual({
        type: 'audio_delta',
        responseId: 'r',
        itemId: 'i',
        audio: new Uint8Array(bytes),
      } satisfies RealtimeEvent);
    }
    expect(log.ofType('error')).toEqual([]);
  });

  test('input speech, commit and transcription events', async () => {
    const { log, server } = await connected();
    server.send({ type: 'input_audio_buffer.speech_started', audio_start_ms: 120, item_id: 'u1' });
    server.send({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: 900, item_id: 'u1' });
    server.send({ type: 'input_audio_buffer.committed', previous_item_id: null, item_id: 'u1' });
    server.send({
      type: 'conversation.item.input_audio_transcription.delta',
      item_id: 'u1',
      content_index: 0,
      delta: 'hel',
      obfuscation: 'q',
    });
    server.send({
      type: 'conversation.item.input_audio_transcription.completed',
      item_id: 'u1',
      content_index: 0,
      transcript: 'hello',
      usage: { type: 'duration', seconds: 1 },
    });
    server.send({
      type: 'conversation.item.input_audio_transcription.failed',
      item_id: 'u2',
      content_index: 0,
      error: { code: 'audio_unintelligible', message: 'noise' },
    });
    await log.waitFor('error');
    expect(log.events.slice(1)).toEqual([
      { type: 'input_speech_started' },
      { type: 'input_speech_stopped' },
      { type: 'input_audio_committed', itemId: 'u1' },
      { type: 'input_transcription', itemId: 'u1', text: 'hel', final: false },
      { type: 'input_transcription', itemId: 'u1', text: 'hello', final: true },
      { type: 'error', code: 'audio_unintelligible', message: 'noise' },
    ]);
  });
});

describe('raw events (opt-in)', () => {
  test('rawEvents: true emits each server event as parsed JSON, ahead of its normalized events', async () => {
    const sim = await simulator();
    const connection = await modelFor(sim).connect({ config: {}, rawEvents: true });
    const log = new EventLog(connection);
    const { events } = log;
    sim.script({ type: 'message', text: 'Hi' });
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await log.waitFor('response_done');
    const rawTypes = events.flatMap((e) =>
      e.type === 'raw_event' ? [(e.event as { type: string }).type] : [],
    );
    expect(rawTypes).toContain('response.created');
    expect(rawTypes).toContain('response.done');
    const rawDone = events.findIndex(
      (e) => e.type === 'raw_event' && (e.event as { type: string }).type === 'response.done',
    );
    expect(rawDone).toBeLessThan(events.findIndex((e) => e.type === 'response_done'));
    await connection.close();
  });

  test('without rawEvents no raw_event is emitted', async () => {
    const { connection, log, sim } = await connected();
    sim.script({ type: 'message', text: 'Hi' });
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await log.waitFor('response_done');
    expect(log.events.filter((e) => e.type === 'raw_event')).toEqual([]);
  });
});
