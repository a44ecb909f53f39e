import {
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeCapability,
  type RealtimeCommand,
  type RealtimeEvent,
  type RealtimeSessionConfig,
  UserError,
} from '@parley/core';
import {
  ALL_REALTIME_CAPABILITIES,
  DEFAULT_MOCK_REALTIME_CAPABILITIES,
  flushMicrotasks,
  ManualClock,
  MockConnectError,
  MockRealtimeModel,
  MockScriptError,
  mockPcm16,
} from '@parley/mock';
import { describe, expect, test } from 'vitest';

const config: RealtimeSessionConfig = { instructions: 'x', tools: [], outputModalities: ['audio'] };

async function open(model = new MockRealtimeModel(), cfg: RealtimeSessionConfig = config) {
  const connection = await model.connect({ config: cfg });
  const events: RealtimeEvent[] = [];
  connection.onEvent((event) => events.push(event));
  const of = <T extends RealtimeEvent['type']>(type: T) =>
    events.filter((e): e is Extract<RealtimeEvent, { type: T }> => e.type === type);
  return { model, connection, events, of };
}

describe('MockRealtimeModel', () => {
  test('declares the current specification and every capability but autoToolResponseGeneration, sessionResumption, commitStartsResponse and toolCallCancellation by default; each can be changed', () => {
    const model = new MockRealtimeModel();
    expect(model.specificationVersion).toBe(REALTIME_SPECIFICATION_VERSION);
    const producerOwn = {
      autoToolResponseGeneration: false,
      sessionResumption: false,
      commitStartsResponse: false,
      toolCallCancellation: false,
    };
    expect(model.capabilities).toEqual({ ...ALL_REALTIME_CAPABILITIES, ...producerOwn });
    expect(model.capabilities).toEqual(DEFAULT_MOCK_REALTIME_CAPABILITIES);
    expect(Object.keys(model.capabilities)).toHaveLength(18);
    const allOn = {
      autoToolResponseGeneration: true,
      sessionResumption: true,
      commitStartsResponse: true,
      toolCallCancellation: true,
    };
    expect(new MockRealtimeModel({ capabilities: allOn }).capabilities).toEqual(ALL_REALTIME_CAPABILITIES);
    const off = new MockRealtimeModel({ capabilities: { messageTruncation: false } });
    expect(off.capabilities.messageTruncation).toBe(false);
    expect(off.capabilities.audioOutput).toBe(true);
  });

  test('records every command it receives, on the connection and on the model', async () => {
    const { model, connection } = await open();
    connection.send({ type: 'appendInputAudio', audio: new Uint8Array(10) });
    connection.send({ type: 'commitInputAudio' });
    expect(connection.commands.map((c) => c.type)).toEqual(['appendInputAudio', 'commitInputAudio']);
    expect(model.commands).toEqual(connection.commands);
  });

  test('plays a scripted spoken message: audio chunks with transcript deltas, keyed by response and item', async () => {
    const { model, connection, of } = await open();
    model.respondWith({
      output: [{ type: 'message', text: 'Hello there', audio: { ms: 250, chunkMs: 100 } }],
    });
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    const [started] = of('response_started');
    expect(started).toMatchObject({ clientRequestId: 'r1', ephemeral: false });
    const audio = of('audio_delta');
    expect(audio.map((a) => a.audio.byteLength)).toEqual([4800, 4800, 2400]);
    expect(audio.every((a) => a.responseId === started!.responseId)).toBe(true);
    expect(
      of('transcript_delta')
        .map((d) => d.delta)
        .join(''),
    ).toBe('Hello there');
    expect(of('transcript_done')[0]?.transcript).toBe('Hello there');
    expect(of('message_done')[0]?.item).toMatchObject({
      status: 'completed',
      content: [{ type: 'audio', transcript: 'Hello there' }],
    });
    expect(of('response_done')[0]).toMatchObject({ status: 'completed', clientRequestId: 'r1' });
    expect(connection.conversation.map((i) => i.type)).toEqual(['message']);
  });

  test('exact audio chunks pass through byte for byte, as copies', async () => {
    const { model, connection, of } = await open();
    const chunk = mockPcm16(10, 7);
    model.respondWith({ output: [{ type: 'message', text: 'a', audio: [chunk] }] });
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    expect(of('audio_delta')[0]?.audio).toEqual(chunk);
    expect(of('audio_delta')[0]?.audio).not.toBe(chunk);
  });

  test('text mode sends text deltas and no audio', async () => {
    const { model, connection, of } = await open(new MockRealtimeModel(), { outputModalities: ['text'] });
    model.respondWith('Plain text.');
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    expect(
      of('text_delta')
        .map((d) => d.delta)
        .join(''),
    ).toBe('Plain text.');
    expect(of('audio_delta')).toHaveLength(0);
  });

  test('several messages and function calls in one response, in order', async () => {
    const { model, connection, events } = await open();
    model.respondWith({
      output: [
        { type: 'message', text: 'One.' },
        { type: 'function_call', name: 'lookup', arguments: { q: 1 }, callId: 'c1' },
        { type: 'message', text: 'Two.' },
      ],
    });
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    const order = events
      .filter((e) => ['message_started', 'function_call', 'response_done'].includes(e.type))
      .map((e) => e.type);
    expect(order).toEqual(['message_started', 'function_call', 'message_started', 'response_done']);
    const call = events.find((e) => e.type === 'function_call');
    expect(call).toMatchObject({ callId: 'c1', name: 'lookup', arguments: '{"q":1}' });
    expect(connection.conversation.map((i) => i.type)).toEqual(['message', 'function_call', 'message']);
  });

  test('one active default-conversation response: a second request is refused with its clientRequestId', async () => {
    const { model, connection, of } = await open();
    model.respondWith({ output: [{ type: 'message', text: 'wait' }, { type: 'pause' }] });
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    connection.send({ type: 'createResponse', clientRequestId: 'r2', ephemeral: false });
    await flushMicrotasks();
    expect(of('error')).toEqual([
      expect.objectContaining({
        code: 'conversation_already_has_active_response',
        clientRequestId: 'r2',
        commandType: 'createResponse',
      }),
    ]);
    expect(connection.activeResponseId).toBe(of('response_started')[0]?.responseId);
    connection.resume();
    await flushMicrotasks();
    expect(connection.activeResponseId).toBeUndefined();
    expect(of('response_done')).toHaveLength(1);
  });

  test("with unscriptedResponses: 'wait', a response with no script queued starts and waits for one", async () => {
    const { model, connection, of } = await open(new MockRealtimeModel({ unscriptedResponses: 'wait' }));
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    expect(of('response_started')).toHaveLength(1);
    expect(of('response_done')).toHaveLength(0);
    model.respondWith('Late answer.');
    await flushMicrotasks();
    expect(of('response_done')).toHaveLength(1);
    expect(of('transcript_done')[0]?.transcript).toBe('Late answer.');
  });

  test('out-of-band responses run beside the active one and never enter the conversation', async () => {
    const { model, connection, of } = await open();
    model.respondWith({ output: [{ type: 'pause' }] }, 'Secret code 1234.');
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    connection.send({ type: 'createResponse', clientRequestId: 'r2', ephemeral: true });
    await flushMicrotasks();
    expect(of('error')).toHaveLength(0);
    expect(of('response_done')[0]).toMatchObject({ clientRequestId: 'r2', ephemeral: true });
    expect(JSON.stringify(connection.conversation)).not.toContain('1234');
  });

  test('announceEarly: item_added (empty, in progress) before the event that links the item to its response', async () => {
    const { model, connection, events } = await open(undefined, { ...config, outputModalities: ['text'] });
    model.respondWith(
      { output: [{ type: 'message', text: 'Out of band.', announceEarly: true }] },
      {
        output: [
          { type: 'message', text: 'Remembered.', announceEarly: true },
          { type: 'function_call', name: 'lookup', announceEarly: true },
        ],
      },
    );
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: true });
    await flushMicrotasks();
    connection.send({ type: 'createResponse', clientRequestId: 'r2', ephemeral: false });
    await flushMicrotasks();
    const order = events.flatMap((e) =>
      e.type === 'item_added'
        ? [`added ${e.item.itemId} after ${e.previousItemId}`]
        : e.type === 'message_started' || e.type === 'function_call'
          ? [`${e.type} ${e.itemId}`]
          : [],
    );
    const [oob, message, call] = events.flatMap((e) => (e.type === 'item_added' ? [e.item.itemId] : []));
    expect(order).toEqual([
      `added ${oob} after null`,
      `message_started ${oob}`,
      `added ${message} after null`,
      `message_started ${message}`,
      `added ${call} after ${message}`,
      `function_call ${call}`,
    ]);
    expect(events.find((e) => e.type === 'item_added')).toMatchObject({
      item: { type: 'message', role: 'assistant', content: [], status: 'in_progress' },
    });
    // The out-of-band item is announced, yet stays out of the conversation.
    expect(connection.conversation.map((i) => i.itemId)).toEqual([message, call]);
  });

  test('cancel: by id mid-response ends the message incomplete; nothing active → response_cancel_not_active', async () => {
    const { model, connection, of } = await open();
    model.respondWith({
      output: [{ type: 'message', text: 'a b c d', audio: { ms: 400 }, pauseAfterChunks: 2 }],
    });
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    const responseId = of('response_started')[0]!.responseId;
    expect(of('audio_delta')).toHaveLength(2);
    connection.send({ type: 'cancelResponse', responseId });
    await flushMicrotasks();
    expect(of('message_done')[0]?.item).toMatchObject({ status: 'incomplete' });
    expect(of('response_done')[0]).toMatchObject({ status: 'cancelled', reason: 'client_cancelled' });
    expect(of('audio_done')).toHaveLength(0);
    connection.send({ type: 'cancelResponse' });
    await flushMicrotasks();
    expect(of('error').map((e) => e.code)).toEqual(['response_cancel_not_active']);
  });

  test('truncate: bounded by the audio received; unknown items and non-audio items are errors', async () => {
    const { model, connection, of } = await open();
    model.respondWith({ output: [{ type: 'message', text: 'hi', audio: { ms: 300 } }] });
    connection.send({
      type: 'createItem',
      item: { type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }] },
    });
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    const itemId = of('message_started')[0]!.itemId;
    const userItemId = of('item_added')[0]!.item.itemId;
    connection.send({ type: 'truncateItem', itemId, heardMs: 301 });
    connection.send({ type: 'truncateItem', itemId: 'nope', heardMs: 0 });
    connection.send({ type: 'truncateItem', itemId: userItemId, heardMs: 0 });
    connection.send({ type: 'truncateItem', itemId, heardMs: 120 });
    await flushMicrotasks();
    expect(of('error').map((e) => [e.code, e.message])).toEqual([
      ['invalid_value', 'Audio content of 300ms is already shorter than 301ms'],
      ['item_truncate_invalid_item_id', "Error truncating item: the item with id 'nope' does not exist."],
      ['invalid_value', 'Only model output audio messages can be truncated'],
    ]);
    expect(of('item_truncated')).toEqual([{ type: 'item_truncated', itemId }]);
    expect(connection.conversation.find((i) => i.itemId === itemId)).toMatchObject({
      content: [{ type: 'audio', transcript: '' }],
    });
  });

  test('create and delete; unknown item → item_delete_invalid_item_id', async () => {
    const { connection, of } = await open();
    connection.send({
      type: 'createItem',
      item: { type: 'message', role: 'user', content: [{ type: 'text', text: '1' }] },
    });
    connection.send({
      type: 'createItem',
      item: { type: 'message', role: 'user', content: [{ type: 'text', text: '3' }] },
    });
    await flushMicrotasks();
    const [first, third] = of('item_added').map((e) => e.item.itemId);
    connection.send({
      type: 'createItem',
      item: { type: 'message', role: 'user', content: [{ type: 'text', text: '2' }] },
    });
    connection.send({ type: 'deleteItem', itemId: third! });
    connection.send({ type: 'deleteItem', itemId: third! });
    await flushMicrotasks();
    expect(
      connection.conversation.map((i) =>
        i.type === 'message' && i.content[0]?.type === 'text' ? i.content[0].text : '',
      ),
    ).toEqual(['1', '2']);
    expect(of('item_added')[2]?.previousItemId).toBe(third);
    expect(first).toBeDefined();
    expect(of('item_deleted')).toEqual([{ type: 'item_deleted', itemId: third }]);
    expect(of('error').map((e) => e.code)).toEqual(['item_delete_invalid_item_id']);
  });

  test.each([
    ['messageTruncation', { type: 'truncateItem', itemId: 'x', heardMs: 0 }],
    ['mutableChatContext', { type: 'deleteItem', itemId: 'x' }],
    ['ephemeralResponse', { type: 'createResponse', clientRequestId: 'r9', ephemeral: true }],
    ['mutableInstructions', { type: 'updateSession', config: { instructions: 'new' } }],
    ['mutableTools', { type: 'updateSession', config: { tools: [] } }],
    ['turnDetection', { type: 'updateSession', config: { turnDetection: {} } }],
    ['audioOutput', { type: 'updateSession', config: { outputModalities: ['audio'] } }],
  ] satisfies [RealtimeCapability, RealtimeCommand][])(
    'with %s off, a command needing it gets capability_not_supported',
    async (capability, command) => {
      const model = new MockRealtimeModel({ capabilities: { [capability]: false } });
      const { connection, of } = await open(model, {
        outputModalities: capability === 'audioOutput' ? ['text'] : ['audio'],
      });
      connection.send(command);
      await flushMicrotasks();
      const [error] = of('error');
      expect(error).toMatchObject({ code: 'capability_not_supported', commandType: command.type });
      expect(error?.message).toContain(`${capability}: false`);
      if (command.type === 'createResponse') expect(error?.clientRequestId).toBe(command.clientRequestId);
    },
  );

  test('user speech on demand: started cancels the active response (user_turn); stopped commits, transcribes, responds', async () => {
    const { model, connection, of, events } = await open();
    model.respondWith({ output: [{ type: 'message', text: 'long' }, { type: 'pause' }] }, 'Answer.');
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    connection.userStartsSpeaking();
    await flushMicrotasks();
    expect(of('response_done')[0]).toMatchObject({ status: 'cancelled', reason: 'user_turn' });
    connection.userStopsSpeaking({ transcript: 'what time is it' });
    await flushMicrotasks();
    const userItem = of('input_audio_committed')[0]!.itemId;
    expect(of('input_transcription').at(-1)).toEqual({
      type: 'input_transcription',
      itemId: userItem,
      text: 'what time is it',
      final: true,
    });
    const second = of('response_started')[1];
    expect(second?.clientRequestId).toBeUndefined();
    expect(events.at(-1)).toMatchObject({
      type: 'response_done',
      responseId: second?.responseId,
      status: 'completed',
    });
  });

  test('speech events need turn detection', async () => {
    const { connection } = await open(new MockRealtimeModel({ capabilities: { turnDetection: false } }));
    expect(() => connection.userStartsSpeaking()).toThrow(UserError);
  });

  test('a manual commit needs 100 ms of audio', async () => {
    const { connection, of } = await open();
    connection.send({ type: 'appendInputAudio', audio: mockPcm16(50) });
    connection.send({ type: 'commitInputAudio' });
    connection.send({ type: 'appendInputAudio', audio: mockPcm16(60) });
    connection.transcribeNextCommit('hello');
    connection.send({ type: 'commitInputAudio' });
    await flushMicrotasks();
    expect(of('error')[0]).toMatchObject({ code: 'input_audio_buffer_commit_empty' });
    expect(of('input_audio_committed')).toHaveLength(1);
    expect(of('input_transcription').at(-1)).toMatchObject({ text: 'hello', final: true });
  });

  test('autoToolResponseGeneration: the provider starts exactly one follow-up once every call has its output', async () => {
    const { model, connection, of } = await open(
      new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: true } }),
    );
    model.respondWith(
      {
        output: [
          { type: 'function_call', name: 'a', callId: 'c1' },
          { type: 'function_call', name: 'b', callId: 'c2' },
        ],
      },
      'Done.',
    );
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    connection.send({ type: 'sendToolOutput', callId: 'c1', output: '1' });
    await flushMicrotasks();
    expect(of('response_started')).toHaveLength(1);
    connection.send({ type: 'sendToolOutput', callId: 'c2', output: '2' });
    await flushMicrotasks();
    expect(of('response_started')).toHaveLength(2);
    expect(of('response_started')[1]?.clientRequestId).toBeUndefined();
  });

  test('delay steps wait on the injected clock (and need one)', async () => {
    const clock = new ManualClock();
    const { model, connection, of } = await open(new MockRealtimeModel({ clock }));
    model.respondWith({
      output: [
        { type: 'delay', ms: 500 },
        { type: 'message', text: 'after' },
      ],
    });
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    expect(of('message_started')).toHaveLength(0);
    await clock.advance(499);
    expect(of('message_started')).toHaveLength(0);
    await clock.advance(1);
    expect(of('response_done')).toHaveLength(1);
    expect(clock.pendingTimers).toBe(0);
  });

  test('fails and disconnects on demand', async () => {
    const model = new MockRealtimeModel();
    model.failNextConnect();
    await expect(model.connect({ config })).rejects.toBeInstanceOf(MockConnectError);
    const { connection, of } = await open(model);
    connection.emitError({ code: 'server_error', message: 'boom' });
    connection.disconnect('gone');
    await flushMicrotasks();
    expect(of('error')[0]).toMatchObject({ code: 'server_error', message: 'boom' });
    expect(of('connection_status')).toEqual([
      { type: 'connection_status', status: 'disconnected', reason: 'gone' },
    ]);
    expect(connection.status).toBe('closed');
    expect(() => connection.send({ type: 'commitInputAudio' })).toThrow(/closed/);
  });

  test('honours an aborted connect signal while a connect is held', async () => {
    const model = new MockRealtimeModel();
    const gate = model.holdConnects();
    const controller = new AbortController();
    const pending = model.connect({ config, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    gate.release();
    expect(model.connections).toHaveLength(0);
  });
});

describe('MockRealtimeModel script checks', () => {
  test('without compoundResponses a response is one message, or function calls that end it', async () => {
    const model = new MockRealtimeModel({ capabilities: { compoundResponses: false } });
    const call = { type: 'function_call' as const, name: 'look_up' };
    const message = { type: 'message' as const, text: 'Let me look.' };
    expect(() => model.respondWith({ output: [message, call, call] }, 'Plain.')).not.toThrow();
    for (const output of [
      [message, message],
      [call, message],
      [call, { type: 'pause' as const }],
    ]) {
      expect(() => model.respondWith({ output })).toThrow(/compoundResponses off/);
    }
    const { connection } = await open(model);
    expect(() => connection.startResponse({ output: [message, message] })).toThrow(/compoundResponses off/);
    expect(() => new MockRealtimeModel().respondWith({ output: [message, message] })).not.toThrow();
  });

  test('without recoverableErrors every failure ends the connection: no error leaves it open, no request is refused', async () => {
    const { connection, of } = await open(
      new MockRealtimeModel({ capabilities: { recoverableErrors: false } }),
    );
    expect(() => connection.emitError({ code: 'server_error' })).toThrow(/recoverableErrors/);
    expect(() => connection.refuseNextResponse('rate_limit_exceeded')).toThrow(/recoverableErrors/);
    connection.emitError({ code: 'quota_exhausted', fatal: true });
    await flushMicrotasks();
    expect(of('error')).toEqual([expect.objectContaining({ code: 'quota_exhausted', fatal: true })]);
  });

  test('assertComplete passes when every script played, and names scripts left unplayed', async () => {
    const { model, connection } = await open();
    model.respondWith('One.', 'Two.');
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    expect(() => model.assertComplete()).toThrow(
      expect.objectContaining({
        code: 'mock_script_incomplete',
        message: expect.stringContaining('1 queued'),
      }),
    );
    connection.send({ type: 'createResponse', clientRequestId: 'r2', ephemeral: false });
    await flushMicrotasks();
    expect(() => model.assertComplete()).not.toThrow();
  });

  test('a response with nothing scripted fails at once with a clear error, and assertComplete throws it', async () => {
    const { model, connection, of } = await open();
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    expect(of('error')).toEqual([
      expect.objectContaining({
        code: 'mock_script_exhausted',
        message: expect.stringMatching(/no script is queued.*respondWith/),
      }),
    ]);
    expect(of('response_done')).toEqual([
      expect.objectContaining({ status: 'failed', clientRequestId: 'r1' }),
    ]);
    expect(connection.activeResponseId).toBeUndefined();
    expect(() => model.assertComplete()).toThrow(MockScriptError);
    expect(() => model.assertComplete()).toThrow(expect.objectContaining({ code: 'mock_script_exhausted' }));
  });

  test('an unscripted response the provider starts itself (turn detection) fails the same way', async () => {
    const { model, connection, of } = await open();
    connection.userStartsSpeaking();
    connection.userStopsSpeaking({ transcript: 'hello' });
    await flushMicrotasks();
    expect(of('response_done')[0]?.status).toBe('failed');
    expect(() => model.assertComplete()).toThrow(expect.objectContaining({ code: 'mock_script_exhausted' }));
  });

  test('expect_input steps assert what the session sent before the model answers', async () => {
    const { model, connection, of } = await open();
    model.respondWith(
      {
        output: [
          { type: 'expect_input', userText: 'What is my balance?' },
          { type: 'message', text: 'It is 42.' },
        ],
      },
      {
        output: [
          {
            type: 'expect_input',
            description: 'the tool output came back',
            check: ({ conversation }) => conversation.some((item) => item.type === 'function_call_output'),
          },
          { type: 'message', text: 'never said' },
        ],
      },
    );
    connection.send({
      type: 'createItem',
      item: { type: 'message', role: 'user', content: [{ type: 'text', text: 'What is my balance?' }] },
    });
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    expect(of('response_done')[0]).toMatchObject({ status: 'completed' });
    expect(of('error')).toEqual([]);
    connection.send({ type: 'createResponse', clientRequestId: 'r2', ephemeral: false });
    await flushMicrotasks();
    expect(of('response_done')[1]).toMatchObject({ status: 'failed', clientRequestId: 'r2' });
    expect(of('transcript_done').map((d) => d.transcript)).toEqual(['It is 42.']);
    expect(of('error')[0]).toMatchObject({
      code: 'mock_expectation_failed',
      message: expect.stringContaining('the input check (the tool output came back) returned false'),
    });
    expect(() => model.assertComplete()).toThrow(
      expect.objectContaining({ code: 'mock_expectation_failed' }),
    );
  });

  test('an unmet userText names what was expected and what came; a throwing check is a failure too', async () => {
    const { model, connection, of } = await open();
    model.respondWith(
      {
        output: [
          { type: 'expect_input', userText: 'yes' },
          { type: 'message', text: 'x' },
        ],
      },
      {
        output: [
          {
            type: 'expect_input',
            check: () => {
              throw new Error('nope');
            },
          },
        ],
      },
    );
    connection.send({
      type: 'createItem',
      item: { type: 'message', role: 'user', content: [{ type: 'text', text: 'no' }] },
    });
    connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
    await flushMicrotasks();
    connection.send({ type: 'createResponse', clientRequestId: 'r2', ephemeral: false });
    await flushMicrotasks();
    expect(of('error').map((e) => e.message)).toEqual([
      expect.stringContaining('expected the latest user message to be "yes", but it is "no"'),
      expect.stringContaining('threw: nope'),
    ]);
    expect(() => new MockRealtimeModel().respondWith({ output: [{ type: 'expect_input' }] })).toThrow(
      UserError,
    );
  });

  test('strict allows one open connection at a time; a closed one may be followed by another', async () => {
    const model = new MockRealtimeModel({ strict: true });
    const first = await model.connect({ config });
    await expect(model.connect({ config })).rejects.toMatchObject({ code: 'mock_concurrent_connection' });
    expect(model.connections).toHaveLength(1);
    expect(() => model.assertComplete()).toThrow(
      expect.objectContaining({ code: 'mock_concurrent_connection' }),
    );
    await first.close();
    await expect(model.connect({ config })).resolves.toBeDefined();
    const relaxed = new MockRealtimeModel();
    await relaxed.connect({ config });
    await expect(relaxed.connect({ config })).resolves.toBeDefined();
    expect(() => relaxed.assertComplete()).not.toThrow();
  });

  test('unknown options are refused, with the nearest one', () => {
    expect(() => new MockRealtimeModel({ strcit: true } as never)).toThrow(/Did you mean 'strict'/);
    expect(() => new MockRealtimeModel({ unscriptedResponses: 'later' as never })).toThrow(UserError);
  });
});
