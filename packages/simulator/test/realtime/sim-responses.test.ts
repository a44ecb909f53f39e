import { type BrainTurn, createHold } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { simulator } from './helpers.js';
import { collapse, RawClient } from './raw-client.js';

const userMessage = (text: string) => ({
  type: 'conversation.item.create',
  item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
});

describe('simulator: canonical event orderings', () => {
  test('a text turn', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    client.send(userMessage('Hi'));
    client.send({ type: 'response.create' });
    await client.waitFor('rate_limits.updated');
    expect(collapse(client.types(2))).toEqual([
      'conversation.item.added',
      'conversation.item.done',
      'response.created',
      'response.output_item.added',
      'conversation.item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'conversation.item.done',
      'response.done',
      'rate_limits.updated',
    ]);
    const created = client.ofType('response.created')[0]?.response as Record<string, unknown>;
    expect(created).toMatchObject({
      object: 'realtime.response',
      status: 'in_progress',
      output: [],
      usage: null,
      conversation_id: expect.stringMatching(/^conv_/),
    });
    const done = client.ofType('response.done')[0]?.response as Record<string, unknown>;
    expect(done).toMatchObject({
      id: created.id,
      status: 'completed',
      status_details: null,
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'You said: Hi' }],
        },
      ],
      usage: {
        total_tokens: expect.any(Number),
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
      },
    });
    expect(client.ofType('response.content_part.added')[0]?.part).toEqual({ type: 'text', text: '' });
  });

  test('an audio turn: transcript and audio deltas interleave; audio length is proportional to the text', async () => {
    const sim = await simulator({ msPerChar: 10, chunkMs: 50 });
    const client = await RawClient.connect(sim);
    sim.script('Hello world, how are you');
    client.send({ type: 'response.create' });
    await client.waitFor('rate_limits.updated');
    const types = client.types(1);
    expect(collapse(types.filter((t) => !t.endsWith('.delta')))).toEqual([
      'response.created',
      'response.output_item.added',
      'conversation.item.added',
      'response.content_part.added',
      'response.output_audio.done',
      'response.output_audio_transcript.done',
      'response.content_part.done',
      'response.output_item.done',
      'conversation.item.done',
      'response.done',
      'rate_limits.updated',
    ]);
    const firstAudio = types.indexOf('response.output_audio.delta');
    const lastTranscript = types.lastIndexOf('response.output_audio_transcript.delta');
    expect(firstAudio).toBeLessThan(lastTranscript);
    const bytes = client
      .ofType('response.output_audio.delta')
      .map((e) => Buffer.from(e.delta as string, 'base64').length);
    expect(bytes.reduce((a, b) => a + b, 0)).toBe('Hello world, how are you'.length * 10 * 48);
    expect(bytes.slice(0, -1).every((n) => n === 50 * 48)).toBe(true);
    expect(client.ofType('response.content_part.added')[0]?.part).toEqual({ type: 'audio', transcript: '' });
    expect(client.ofType('response.output_item.done')[0]?.item).toMatchObject({
      status: 'completed',
      content: [{ type: 'output_audio', transcript: 'Hello world, how are you' }],
    });
    const delta = client.ofType('response.output_audio.delta')[0];
    expect(Object.keys(delta ?? {})).toEqual([
      'type',
      'event_id',
      'response_id',
      'item_id',
      'output_index',
      'content_index',
      'delta',
    ]);
  });

  test('a message spoken without transcript deltas: full audio, the transcript only in the done events', async () => {
    const sim = await simulator({ msPerChar: 10, chunkMs: 50 });
    const client = await RawClient.connect(sim);
    sim.brain = () => ({ type: 'message', text: 'No captions here', audioMs: 400, transcriptDeltas: false });
    client.send({ type: 'response.create' });
    await client.waitFor('rate_limits.updated');
    expect(client.ofType('response.output_audio_transcript.delta')).toEqual([]);
    const bytes = client
      .ofType('response.output_audio.delta')
      .reduce((n, e) => n + Buffer.from(e.delta as string, 'base64').length, 0);
    expect(bytes).toBe(400 * 48);
    expect(client.ofType('response.output_audio_transcript.done')[0]).toMatchObject({
      transcript: 'No captions here',
    });
  });

  test('announceEarly: conversation.item.added comes before output_item.added, in an out-of-band response too', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    sim.script({ type: 'message', text: 'Out of band.', announceEarly: true }, [
      { type: 'message', text: 'In the conversation.', announceEarly: true },
      { type: 'function_call', name: 'lookup', announceEarly: true },
    ]);
    client.send({ type: 'response.create', response: { conversation: 'none' } });
    await client.waitFor('rate_limits.updated');
    client.send({ type: 'response.create' });
    await client.waitFor('rate_limits.updated', 2);
    const announcements = client.events
      .filter((e) => e.type === 'conversation.item.added' || e.type === 'response.output_item.added')
      .map(
        (e) =>
          `${e.type === 'conversation.item.added' ? 'added' : 'output'} ${(e.item as { id: string }).id}`,
      );
    const ids = client.ofType('response.output_item.added').map((e) => (e.item as { id: string }).id);
    expect(ids).toHaveLength(3);
    expect(announcements).toEqual(ids.flatMap((id) => [`added ${id}`, `output ${id}`]));
    const [oob] = client.ofType('conversation.item.added');
    expect(oob).toMatchObject({ previous_item_id: null, item: { status: 'in_progress', content: [] } });
    // The out-of-band item is announced but stays out of the conversation.
    expect(sim.connections[0]?.conversation.items.map((i) => i.id)).toEqual(ids.slice(1));
    expect(client.ofType('conversation.item.added')[2]).toMatchObject({ previous_item_id: ids[1] });
  });

  test('a spoken preamble and a function call in one response; the follow-up is never automatic', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    sim.script([
      { type: 'message', text: 'Let me check.' },
      { type: 'function_call', name: 'lookup', arguments: { q: 'x' } },
    ]);
    client.send({ type: 'response.create' });
    await client.waitFor('rate_limits.updated');
    const from = client
      .types()
      .indexOf('response.output_item.added', client.types().indexOf('response.output_item.done'));
    expect(collapse(client.types(from))).toEqual([
      'response.output_item.added',
      'conversation.item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'conversation.item.done',
      'response.done',
      'rate_limits.updated',
    ]);
    const added = client.ofType('response.output_item.added')[1];
    expect(added).toMatchObject({
      output_index: 1,
      item: {
        type: 'function_call',
        status: 'in_progress',
        name: 'lookup',
        arguments: '',
        call_id: expect.stringMatching(/^call_/),
      },
    });
    const argsDone = client.ofType('response.function_call_arguments.done')[0];
    expect(argsDone).toMatchObject({
      name: 'lookup',
      arguments: '{"q":"x"}',
      call_id: (added?.item as { call_id: string } | undefined)?.call_id,
    });
    client.send({
      type: 'conversation.item.create',
      item: { type: 'function_call_output', call_id: argsDone?.call_id, output: '"42"' },
    });
    await client.waitFor('conversation.item.done', 3);
    expect(client.ofType('response.created')).toHaveLength(1);
    client.send({ type: 'response.create' });
    await client.waitFor('response.done', 2);
    expect(client.ofType('response.done')[1]?.response).toMatchObject({
      output: [{ content: [{ transcript: 'The tool said: "42"' }] }],
    });
  });
});

describe('simulator: responses', () => {
  test('one active default response; a second is refused with the active id', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    const hold = createHold();
    sim.script([{ type: 'hold', hold }, 'done']);
    client.send({ type: 'response.create' });
    await hold.reached;
    client.send({ type: 'response.create', event_id: 'second' });
    const error = await client.waitFor('error');
    const active = (client.ofType('response.created')[0]?.response as { id: string } | undefined)?.id;
    expect(error.error).toEqual({
      type: 'invalid_request_error',
      code: 'conversation_already_has_active_response',
      message: `Conversation already has an active response in progress: ${active}. Wait until the response is finished before creating a new one.`,
      param: null,
      event_id: 'second',
    });
    expect(sim.connections[0]?.activeResponses).toEqual([{ id: active, conversation: 'default' }]);
    hold.release();
    await client.waitFor('response.done');
    expect(sim.connections[0]?.activeResponses).toEqual([]);
  });

  test('out-of-band responses run concurrently with the default one, stay out of the conversation, echo metadata', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    const holds = [createHold('default'), createHold('oob1'), createHold('oob2')];
    sim.script(
      ...holds.map((hold) => [
        { type: 'hold' as const, hold },
        { type: 'message' as const, text: hold.label ?? '' },
      ]),
    );
    client.send(userMessage('context'));
    client.send({ type: 'response.create' });
    client.send({
      type: 'response.create',
      response: { conversation: 'none', metadata: { k: '1' }, output_modalities: ['text'] },
    });
    client.send({
      type: 'response.create',
      response: { conversation: 'none', metadata: { k: '2' }, input: [] },
    });
    await Promise.all(holds.map((h) => h.reached));
    await client.waitFor('response.created', 3);
    const created = client.ofType('response.created').map((e) => e.response as Record<string, unknown>);
    expect(created.map((r) => [r.conversation_id === null, r.metadata])).toEqual([
      [false, null],
      [true, { k: '1' }],
      [true, { k: '2' }],
    ]);
    expect(sim.connections[0]?.activeResponses.map((r) => r.conversation)).toEqual([
      'default',
      'none',
      'none',
    ]);
    for (const hold of holds) hold.release();
    await client.waitFor('response.done', 3);
    // They finish in any order (each at its own pace); each echoes its own metadata.
    const dones = created.map(
      (c) =>
        client.ofType('response.done').find((e) => (e.response as { id: string }).id === c.id)
          ?.response as Record<string, unknown>,
    );
    expect(dones.map((r) => r.metadata)).toEqual([null, { k: '1' }, { k: '2' }]);
    // Only the default response's item entered the conversation.
    expect(sim.connections[0]?.conversation.items.map((i) => i.type === 'message' && i.role)).toEqual([
      'user',
      'assistant',
    ]);
    const oobItemId = (dones[1]?.output as { id: string }[] | undefined)?.[0]?.id;
    client.send({
      type: 'conversation.item.truncate',
      item_id: oobItemId,
      content_index: 0,
      audio_end_ms: 0,
      event_id: 't',
    });
    expect((await client.waitFor('error')).error).toMatchObject({
      code: 'item_truncate_invalid_item_id',
      event_id: 't',
    });
  });

  test('the brain sees the context: conversation or input, instructions, tools and metadata', async () => {
    const turns: BrainTurn[] = [];
    const sim = await simulator({
      brain: (turn) => {
        turns.push(turn);
        return 'ok';
      },
    });
    const client = await RawClient.connect(sim);
    const tool = { type: 'function', name: 'f', description: 'd', parameters: { type: 'object' } };
    client.send({
      type: 'session.update',
      session: { type: 'realtime', instructions: 'Session.', tools: [tool] },
    });
    client.send(userMessage('one'));
    client.send({ type: 'response.create' });
    await client.waitFor('response.done');
    client.send({
      type: 'response.create',
      response: {
        conversation: 'none',
        instructions: 'Only this.',
        tools: [],
        metadata: { a: 'b' },
        input: [
          {
            type: 'item_reference',
            id: (client.ofType('conversation.item.added')[0]?.item as { id: string } | undefined)?.id,
          },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'two' }] },
        ],
      },
    });
    await client.waitFor('response.done', 2);
    expect(turns[0]).toMatchObject({
      conversation: 'default',
      trigger: 'client',
      instructions: 'Session.',
      tools: [tool],
      lastUserText: 'one',
      metadata: null,
    });
    expect(turns[0]?.messages.map((m) => [m.role, m.text])).toEqual([['user', 'one']]);
    expect(turns[1]).toMatchObject({
      conversation: 'none',
      instructions: 'Only this.',
      tools: [],
      lastUserText: 'two',
      metadata: { a: 'b' },
    });
    expect(turns[1]?.messages.map((m) => m.text)).toEqual(['one', 'two']);
  });

  test('cancel by id stops an out-of-band response; a cancel without id targets the default one only', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    const a = createHold();
    const b = createHold();
    sim.script(
      { type: 'message', text: ['Default ', a, 'rest'] },
      { type: 'message', text: ['Band ', b, 'rest'] },
    );
    client.send({ type: 'response.create' });
    client.send({ type: 'response.create', response: { conversation: 'none' } });
    await Promise.all([a.reached, b.reached]);
    await client.waitFor('response.created', 2);
    const [defaultId, oobId] = client
      .ofType('response.created')
      .map((e) => (e.response as { id: string }).id);
    client.send({ type: 'response.cancel' });
    await client.waitFor('response.done');
    expect(client.ofType('response.done')[0]?.response).toMatchObject({
      id: defaultId,
      status: 'cancelled',
      status_details: { type: 'cancelled', reason: 'client_cancelled' },
    });
    client.send({ type: 'response.cancel', response_id: oobId });
    await client.waitFor('response.done', 2);
    expect(client.ofType('response.done')[1]?.response).toMatchObject({ id: oobId, status: 'cancelled' });
    client.send({ type: 'response.cancel', response_id: oobId, event_id: 'again' });
    expect((await client.waitFor('error')).error).toMatchObject({
      code: 'response_cancel_not_active',
      event_id: 'again',
    });
    a.release();
    b.release();
    expect(client.ofType('response.done')).toHaveLength(2);
  });

  test('a cancelled message closes with what was streamed: partial transcript, incomplete item, its audio only', async () => {
    const sim = await simulator({ msPerChar: 10 });
    const client = await RawClient.connect(sim);
    const hold = createHold();
    sim.script({ type: 'message', text: ['First part. ', hold, 'Second part.'] });
    client.send({ type: 'response.create' });
    await hold.reached;
    // The hold is reached on the server; its log is exact at this point (the client may still be receiving).
    const server = await sim.waitForConnection();
    const at = server.serverEvents.length;
    client.send({ type: 'response.cancel' });
    await client.waitFor('rate_limits.updated');
    expect(server.serverEvents.slice(at).map((e) => e.type)).toEqual([
      'response.output_audio.done',
      'response.output_audio_transcript.done',
      'response.content_part.done',
      'response.output_item.done',
      'conversation.item.done',
      'response.done',
      'rate_limits.updated',
    ]);
    expect(client.ofType('response.output_audio_transcript.done')[0]?.transcript).toBe('First part. ');
    const item = client.ofType('response.output_item.done')[0]?.item as { id: string; status: string };
    expect(item.status).toBe('incomplete');
    expect(sim.connections[0]?.conversation.audioMs(item.id)).toBe('First part. '.length * 10);
    hold.release();
    expect(client.ofType('response.done')).toHaveLength(1);
  });

  test('an async brain keeps the response active; cancelling it meanwhile ends it with no output', async () => {
    let answer!: (text: string) => void;
    const sim = await simulator({ brain: () => new Promise<string>((resolve) => (answer = resolve)) });
    const client = await RawClient.connect(sim);
    client.send({ type: 'response.create' });
    await client.waitFor('response.created');
    client.send({ type: 'response.cancel' });
    await client.waitFor('response.done');
    answer('too late');
    client.send({ type: 'input_audio_buffer.clear' });
    await client.waitFor('input_audio_buffer.cleared');
    expect(client.ofType('response.done')[0]?.response).toMatchObject({ status: 'cancelled', output: [] });
    expect(client.ofType('response.output_item.added')).toEqual([]);
  });

  test('a failing response ends with status failed and the error details', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    sim.script({ type: 'fail', code: 'inference_rate_limit_exceeded', message: 'Rate limit reached' });
    client.send({ type: 'response.create' });
    const done = await client.waitFor('response.done');
    expect(done.response).toMatchObject({
      status: 'failed',
      status_details: {
        type: 'failed',
        error: {
          type: 'invalid_request_error',
          code: 'inference_rate_limit_exceeded',
          message: 'Rate limit reached',
        },
      },
      output: [],
    });
  });
});
