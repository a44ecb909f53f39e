import { UserError } from '@parley/core';
import { describe, expect, test } from 'vitest';
import { connected, modelFor, sent, simulator } from './helpers.js';

const PCM = { type: 'audio/pcm', rate: 24000 };
const weather = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('session.update', () => {
  test('every update sends the complete merged session: a handoff never resets audio format or voice', async () => {
    const { connection, server } = await connected(
      {},
      {
        sessionConfig: {
          audio: { input: { noise_reduction: { type: 'near_field' } } },
          max_output_tokens: 800,
        },
      },
      {
        instructions: 'You are A.',
        voice: 'marin',
        turnDetection: { createResponse: false, silenceDurationMs: 400 },
        inputTranscription: { model: 'whisper-1', language: 'de' },
        tools: [weather],
      },
    );
    connection.send({
      type: 'updateSession',
      config: { instructions: 'You are B.', tools: [], toolChoice: { type: 'function', name: 'x' } },
    });
    await server.waitForServerEvent('session.updated', 2);
    const [initial, handoff] = sent(server, 'session.update');
    expect(initial).toEqual({
      type: 'session.update',
      event_id: expect.any(String),
      session: {
        type: 'realtime',
        max_output_tokens: 800,
        instructions: 'You are A.',
        tools: [{ type: 'function', ...weather }],
        audio: {
          input: {
            format: PCM,
            noise_reduction: { type: 'near_field' },
            turn_detection: { type: 'server_vad', silence_duration_ms: 400, create_response: false },
            transcription: { model: 'whisper-1', language: 'de' },
          },
          output: { format: PCM, voice: 'marin' },
        },
      },
    });
    expect(handoff).toEqual({
      type: 'session.update',
      event_id: expect.any(String),
      session: {
        type: 'realtime',
        max_output_tokens: 800,
        instructions: 'You are B.',
        tools: [],
        tool_choice: { type: 'function', name: 'x' },
        audio: {
          input: {
            format: PCM,
            noise_reduction: { type: 'near_field' },
            turn_detection: { type: 'server_vad', silence_duration_ms: 400, create_response: false },
            transcription: { model: 'whisper-1', language: 'de' },
          },
          output: { format: PCM, voice: 'marin' },
        },
      },
    });
    expect(initial?.event_id).not.toBe(handoff?.event_id);
    expect(server.session.audio?.output?.voice).toBe('marin');
  });

  test('null turns detection and transcription off; providerData merges key by key; modalities map', async () => {
    const { connection, server } = await connected();
    connection.send({
      type: 'updateSession',
      config: {
        turnDetection: null,
        inputTranscription: null,
        outputModalities: ['text'],
        providerData: { audio: { output: { speed: 1.2 } } },
      },
    });
    connection.send({ type: 'updateSession', config: { providerData: { truncation: 'disabled' } } });
    await server.waitForServerEvent('session.updated', 3);
    expect(sent(server, 'session.update')[2]?.session).toEqual({
      type: 'realtime',
      output_modalities: ['text'],
      truncation: 'disabled',
      audio: {
        input: { format: PCM, turn_detection: null, transcription: null },
        output: { format: PCM, speed: 1.2 },
      },
    });
  });

  test('semantic VAD sends only the fields it accepts; transcription gets a default model', async () => {
    const { connection, server } = await connected();
    connection.send({
      type: 'updateSession',
      config: {
        turnDetection: {
          interruptResponse: false,
          providerOptions: { type: 'semantic_vad', threshold: 0.9 },
        },
        inputTranscription: {},
      },
    });
    await server.waitForServerEvent('session.updated', 2);
    expect(sent(server, 'session.update')[1]?.session).toMatchObject({
      audio: {
        input: {
          turn_detection: { type: 'semantic_vad', interrupt_response: false },
          transcription: { model: 'gpt-4o-mini-transcribe' },
        },
      },
    });
  });
});

describe('commands on the wire', () => {
  test('createItem maps every item kind, with ids', async () => {
    const { connection, server } = await connected();
    connection.send({
      type: 'createItem',
      item: { type: 'message', itemId: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] },
    });
    connection.send({
      type: 'createItem',
      item: {
        type: 'message',
        role: 'user',
        content: [{ type: 'audio', audio: new Uint8Array([1, 2, 3, 250]), transcript: 'hey' }],
      },
    });
    connection.send({
      type: 'createItem',
      item: { type: 'message', role: 'system', content: [{ type: 'text', text: 'be nice' }] },
    });
    connection.send({
      type: 'createItem',
      item: {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'text', text: 'a' },
          { type: 'audio', transcript: 'spoken' },
        ],
      },
    });
    connection.send({
      type: 'createItem',
      item: { type: 'function_call', itemId: 'fc1', callId: 'call_1', name: 'get_weather', arguments: '{}' },
    });
    connection.send({
      type: 'createItem',
      item: { type: 'function_call_output', callId: 'call_1', output: '"sun"' },
    });
    await server.waitForServerEvent('conversation.item.done', 6);
    expect(sent(server, 'conversation.item.create').map(({ event_id, ...rest }) => rest)).toEqual([
      {
        type: 'conversation.item.create',
        item: { type: 'message', id: 'u1', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      },
      {
        type: 'conversation.item.create',
        item: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_audio', audio: 'AQID+g==', transcript: 'hey' }],
        },
      },
      {
        type: 'conversation.item.create',
        item: { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'be nice' }] },
      },
      {
        type: 'conversation.item.create',
        item: {
          type: 'message',
          role: 'assistant',
          content: [
            { type: 'output_text', text: 'a' },
            { type: 'output_text', text: 'spoken' },
          ],
        },
      },
      {
        type: 'conversation.item.create',
        item: { type: 'function_call', id: 'fc1', call_id: 'call_1', name: 'get_weather', arguments: '{}' },
      },
      {
        type: 'conversation.item.create',
        item: { type: 'function_call_output', call_id: 'call_1', output: '"sun"' },
      },
    ]);
    expect(server.conversation.items.map((i) => i.id).slice(0, 2)).toEqual(['u1', expect.any(String)]);
    expect(server.serverEvents.filter((e) => e.type === 'error')).toEqual([]);
  });

  test('sendToolOutput is a function_call_output item and starts no response', async () => {
    const { connection, server } = await connected();
    connection.send({ type: 'sendToolOutput', callId: 'call_9', output: '{"ok":true}' });
    await server.waitForServerEvent('conversation.item.done');
    expect(sent(server, 'conversation.item.create')).toEqual([
      {
        type: 'conversation.item.create',
        event_id: expect.stringMatching(/^parley\.sendToolOutput\./),
        item: { type: 'function_call_output', call_id: 'call_9', output: '{"ok":true}' },
      },
    ]);
    expect(sent(server, 'response.create')).toEqual([]);
  });

  test('createResponse carries clientRequestId as event_id and in metadata; out of band is conversation none', async () => {
    const { connection, server, log } = await connected();
    connection.send({ type: 'createResponse', clientRequestId: 'req_a', ephemeral: false });
    await log.waitFor('response_done');
    connection.send({
      type: 'createResponse',
      clientRequestId: 'req_b',
      ephemeral: true,
      instructions: 'Summarize.',
      tools: [weather],
      toolChoice: 'none',
    });
    await log.waitFor('response_done', 2);
    expect(sent(server, 'response.create')).toEqual([
      { type: 'response.create', event_id: 'req_a', response: { metadata: { parley_request_id: 'req_a' } } },
      {
        type: 'response.create',
        event_id: 'req_b',
        response: {
          metadata: { parley_request_id: 'req_b' },
          conversation: 'none',
          instructions: 'Summarize.',
          tools: [{ type: 'function', ...weather }],
          tool_choice: 'none',
        },
      },
    ]);
  });

  test('cancelResponse carries the response id when given; truncate sends integer audio_end_ms', async () => {
    const { connection, server } = await connected();
    connection.send({ type: 'cancelResponse', responseId: 'resp_1' });
    connection.send({ type: 'cancelResponse' });
    connection.send({ type: 'truncateItem', itemId: 'item_1', heardMs: 1234.9 });
    connection.send({ type: 'deleteItem', itemId: 'item_2' });
    await server.waitForServerEvent('error', 4);
    const strip = (events: Record<string, unknown>[]) => events.map(({ event_id, ...rest }) => rest);
    expect(strip(sent(server, 'response.cancel'))).toEqual([
      { type: 'response.cancel', response_id: 'resp_1' },
      { type: 'response.cancel' },
    ]);
    expect(strip(sent(server, 'conversation.item.truncate'))).toEqual([
      { type: 'conversation.item.truncate', item_id: 'item_1', content_index: 0, audio_end_ms: 1234 },
    ]);
    expect(strip(sent(server, 'conversation.item.delete'))).toEqual([
      { type: 'conversation.item.delete', item_id: 'item_2' },
    ]);
  });

  test('audio input is appended as base64 of exactly the bytes; commit', async () => {
    const { connection, server } = await connected({}, {}, { turnDetection: null });
    const audio = new Uint8Array(4800).map((_, i) => i % 251);
    connection.send({ type: 'appendInputAudio', audio: audio.subarray(0, 2400) });
    connection.send({ type: 'appendInputAudio', audio: audio.subarray(2400) });
    connection.send({ type: 'commitInputAudio' });
    await server.waitForServerEvent('input_audio_buffer.committed');
    const appends = sent(server, 'input_audio_buffer.append');
    expect(appends.map((e) => e.audio)).toEqual([
      Buffer.from(audio.subarray(0, 2400)).toString('base64'),
      Buffer.from(audio.subarray(2400)).toString('base64'),
    ]);
    expect(appends[0]?.event_id).toMatch(/^parley\.appendInputAudio\./);
    expect(sent(server, 'input_audio_buffer.commit')).toHaveLength(1);
    expect(server.conversation.items).toHaveLength(1);
  });

  test('truncate with a non-finite position is a UserError, sent nowhere', async () => {
    const { connection, server } = await connected();
    expect(() => connection.send({ type: 'truncateItem', itemId: 'i', heardMs: Number.NaN })).toThrow(
      UserError,
    );
    expect(sent(server, 'conversation.item.truncate')).toEqual([]);
  });

  test('send after close throws connection_closed; close is idempotent', async () => {
    const sim = await simulator();
    const connection = await modelFor(sim).connect({ config: {} });
    const first = connection.close();
    expect(connection.close()).toBe(first);
    await first;
    expect(connection.status).toBe('closed');
    expect(() => connection.send({ type: 'commitInputAudio' })).toThrow(
      expect.objectContaining({ code: 'connection_closed' }),
    );
    await expect(connection.close()).resolves.toBeUndefined();
    await sim.waitForIdle();
  });
});
