import { describe, expect, test } from 'vitest';
import { simulator } from './helpers.js';
import { RawClient } from './raw-client.js';

describe('simulator: session and client-event validation', () => {
  test('session.created comes first, with the GA default session', async () => {
    const sim = await simulator();
    const before = Math.floor(Date.now() / 1000);
    const client = await RawClient.connect(sim);
    expect(client.events[0]).toEqual({
      type: 'session.created',
      event_id: expect.stringMatching(/^event_/),
      session: expect.objectContaining({
        type: 'realtime',
        object: 'realtime.session',
        id: expect.stringMatching(/^sess_/),
        model: 'gpt-realtime',
        output_modalities: ['audio'],
        tools: [],
        tool_choice: 'auto',
        audio: {
          input: {
            format: { type: 'audio/pcm', rate: 24000 },
            transcription: null,
            noise_reduction: null,
            turn_detection: {
              type: 'server_vad',
              threshold: 0.5,
              prefix_padding_ms: 300,
              silence_duration_ms: 200,
              idle_timeout_ms: null,
              create_response: true,
              interrupt_response: true,
            },
          },
          output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy', speed: 1 },
        },
      }),
    });
    const expiresAt = (client.events[0]?.session as { expires_at: number } | undefined)?.expires_at ?? 0;
    expect(expiresAt - before).toBeGreaterThanOrEqual(3599);
    expect(expiresAt - before).toBeLessThanOrEqual(3601);
  });

  test('errors have the real shape and echo the client event_id; successes do not', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({ type: 'response.cancel', event_id: 'evt_mine' });
    client.send({
      type: 'session.update',
      event_id: 'evt_ok',
      session: { type: 'realtime', instructions: 'x' },
    });
    await client.waitFor('session.updated');
    expect(client.ofType('error')).toEqual([
      {
        type: 'error',
        event_id: expect.stringMatching(/^event_/),
        error: {
          type: 'invalid_request_error',
          code: 'response_cancel_not_active',
          message: 'Cancellation failed: no active response found',
          param: null,
          event_id: 'evt_mine',
        },
      },
    ]);
    expect(JSON.stringify(client.ofType('session.updated'))).not.toContain('evt_ok');
  });

  test.each([
    [
      { type: 'nope.event', event_id: 'e1' },
      'invalid_value',
      'type',
      /Invalid value: 'nope.event'. Supported values are: 'session.update'/,
    ],
    [{ event_id: 'e1' }, 'invalid_event', null, /The 'type' field is missing\./],
    [
      { type: 'session.update', event_id: 'e1', session: { instructions: 'x' } },
      'missing_required_parameter',
      'session.type',
      /Missing required parameter: 'session.type'\./,
    ],
    [{ type: 'session.update', event_id: 'e1' }, 'missing_required_parameter', 'session', /'session'/],
    [
      { type: 'session.update', event_id: 'e1', session: { type: 'realtime', modalities: ['text'] } },
      'unknown_parameter',
      'session.modalities',
      /Unknown parameter: 'session.modalities'\./,
    ],
    [
      { type: 'session.update', event_id: 'e1', session: { type: 'transcription' } },
      'invalid_value',
      'session.type',
      /transcription session update event to a realtime session is not allowed/,
    ],
    [
      {
        type: 'session.update',
        event_id: 'e1',
        session: { type: 'realtime', output_modalities: ['text', 'audio'] },
      },
      'invalid_value',
      'session.output_modalities',
      /Supported values/,
    ],
    [
      { type: 'session.update', event_id: 'e1', session: { type: 'realtime', max_output_tokens: 5000 } },
      'invalid_value',
      'session.max_output_tokens',
      /4096/,
    ],
    [
      {
        type: 'session.update',
        event_id: 'e1',
        session: { type: 'realtime', audio: { input: { format: { type: 'audio/pcm', rate: 16000 } } } },
      },
      'invalid_value',
      'session.audio.input.format.rate',
      /24000/,
    ],
    [{ type: 'input_audio_buffer.append', event_id: 'e1' }, 'missing_required_parameter', 'audio', /'audio'/],
    [
      { type: 'input_audio_buffer.append', event_id: 'e1', audio: 'not base64!' },
      'invalid_value',
      'audio',
      /base64/,
    ],
    [
      {
        type: 'conversation.item.create',
        event_id: 'e1',
        item: { type: 'message', role: 'assistant', content: [{ type: 'output_audio', audio: 'AAAA' }] },
      },
      'invalid_value',
      'item.content[0].type',
      /'output_text'/,
    ],
    [
      {
        type: 'conversation.item.create',
        event_id: 'e1',
        item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'a' }] },
        previous_item_id: 'item_missing',
      },
      'invalid_value',
      'previous_item_id',
      /does not exist/,
    ],
    [
      {
        type: 'conversation.item.create',
        event_id: 'e1',
        item: { type: 'function_call_output', output: 'x' },
      },
      'missing_required_parameter',
      'item.call_id',
      /'item.call_id'/,
    ],
    [
      { type: 'conversation.item.retrieve', event_id: 'e1', item_id: 'item_x' },
      'item_retrieve_invalid_item_id',
      'item_id',
      /does not exist/,
    ],
    [
      { type: 'response.create', event_id: 'e1', response: { conversation: 'other' } },
      'invalid_value',
      'response.conversation',
      /'auto' and 'none'/,
    ],
    [
      { type: 'response.create', event_id: 'e1', response: { modalities: ['text'] } },
      'unknown_parameter',
      'response.modalities',
      /Unknown parameter/,
    ],
    [
      { type: 'response.create', event_id: 'e1', response: { metadata: { k: 5 } } },
      'invalid_value',
      'response.metadata.k',
      /strings/,
    ],
    [
      {
        type: 'conversation.item.truncate',
        event_id: 'e1',
        item_id: 'x',
        content_index: 0,
        audio_end_ms: 1.5,
      },
      'invalid_type',
      'audio_end_ms',
      /integer/,
    ],
  ] as const)('%j is refused with %s', async (event, code, param, message) => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send(event);
    const error = await client.waitFor('error');
    expect(error.error).toEqual({
      type: 'invalid_request_error',
      code,
      param,
      message: expect.stringMatching(message),
      event_id: 'e1',
    });
  });

  test('a frame that is not JSON gets an error; the connection stays usable', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.ws.send('{oops');
    client.send({ type: 'input_audio_buffer.clear' });
    await client.waitFor('input_audio_buffer.cleared');
    expect(client.ofType('error')[0]?.error).toMatchObject({ code: 'invalid_json', event_id: null });
    expect(sim.connections[0]?.clientEvents[0]).toBe('{oops');
  });

  test('session.update is all or nothing, and merges what it sets', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({
      type: 'session.update',
      session: {
        type: 'realtime',
        instructions: 'new',
        audio: { input: { turn_detection: { type: 'server_vad', threshold: 2 } } },
      },
    });
    await client.waitFor('error');
    expect(sim.connections[0]?.session.instructions).not.toBe('new');
    client.send({
      type: 'session.update',
      session: { type: 'realtime', audio: { output: { voice: 'marin' } } },
    });
    client.send({
      type: 'session.update',
      session: { type: 'realtime', audio: { input: { turn_detection: null } } },
    });
    const updated = await client.waitFor('session.updated', 2);
    expect(updated.session).toMatchObject({
      audio: {
        input: { turn_detection: null, format: { type: 'audio/pcm', rate: 24000 } },
        output: { voice: 'marin', speed: 1 },
      },
    });
  });

  test('conversation items: previous_item_id root and after; duplicate ids refused; retrieve and delete', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    const msg = (id: string) => ({
      type: 'message',
      id,
      role: 'user',
      content: [{ type: 'input_text', text: id }],
    });
    client.send({ type: 'conversation.item.create', item: msg('a') });
    client.send({ type: 'conversation.item.create', item: msg('b'), previous_item_id: 'root' });
    client.send({ type: 'conversation.item.create', item: msg('c'), previous_item_id: 'b' });
    client.send({ type: 'conversation.item.create', item: msg('a'), event_id: 'dup' });
    client.send({ type: 'conversation.item.retrieve', item_id: 'c' });
    client.send({ type: 'conversation.item.delete', item_id: 'b' });
    await client.waitFor('conversation.item.deleted');
    expect(
      client
        .ofType('conversation.item.added')
        .map((e) => [(e.item as { id: string }).id, e.previous_item_id]),
    ).toEqual([
      ['a', null],
      ['b', null],
      ['c', 'b'],
    ]);
    expect(client.ofType('conversation.item.added')[0]?.item).toEqual({
      ...msg('a'),
      object: 'realtime.item',
      status: 'completed',
    });
    expect(client.ofType('error')[0]?.error).toMatchObject({
      code: 'invalid_value',
      param: 'item.id',
      event_id: 'dup',
    });
    expect(client.ofType('conversation.item.retrieved')[0]?.item).toMatchObject({ id: 'c' });
    expect(sim.connections[0]?.conversation.items.map((i) => i.id)).toEqual(['c', 'a']);
  });

  test('retrieve returns the audio of an item; created audio items do not echo their bytes', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    const audio = Buffer.from(new Uint8Array(4800).fill(7)).toString('base64');
    client.send({
      type: 'conversation.item.create',
      item: { type: 'message', id: 'u', role: 'user', content: [{ type: 'input_audio', audio }] },
    });
    client.send({ type: 'conversation.item.retrieve', item_id: 'u' });
    const retrieved = await client.waitFor('conversation.item.retrieved');
    expect(client.ofType('conversation.item.added')[0]?.item).toMatchObject({
      content: [{ type: 'input_audio', transcript: null }],
    });
    expect(JSON.stringify(client.ofType('conversation.item.added'))).not.toContain(audio);
    expect(retrieved.item).toMatchObject({ id: 'u', content: [{ type: 'input_audio', audio }] });
  });

  test('a client sending OpenAI-Beta gets beta_api_shape_disabled and close 4000', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim, {
      headers: { Authorization: 'Bearer sk-x', 'OpenAI-Beta': 'realtime=v1' },
      waitForSession: false,
    });
    const closed = await client.closed;
    expect(closed).toEqual({ code: 4000, reason: 'beta_api_shape_disabled' });
    expect(client.types()).toEqual(['error']);
    expect(client.events[0]?.error).toMatchObject({ code: 'beta_api_shape_disabled' });
  });
});
