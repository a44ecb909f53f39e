import type { RealtimeCommand } from '@parley/core';
import { clientEventToCommand, createHold, seamCommandsOf, sessionToSeamConfig } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { connected, simulator } from './helpers.js';
import { RawClient } from './raw-client.js';

describe('simulator controls for harnesses', () => {
  test('startSpeech / stopSpeech act like server VAD: barge-in, commit, transcript, automatic response', async () => {
    const sim = await simulator({
      session: { output_modalities: ['text'], audio: { input: { transcription: { model: 'whisper-1' } } } },
    });
    const client = await RawClient.connect(sim);
    const server = await sim.waitForConnection();
    const hold = createHold();
    sim.script([{ type: 'hold', hold }, 'first'], (turn) => `Heard: ${turn.lastUserText}`);
    client.send({ type: 'response.create' });
    await hold.reached;
    server.startSpeech();
    server.stopSpeech({ transcript: 'turn it off' });
    await client.waitFor('response.done', 2);
    const types = client.types(1).filter((t) => !t.includes('delta'));
    expect(types.slice(types.indexOf('input_audio_buffer.speech_started'))).toEqual([
      'input_audio_buffer.speech_started',
      'response.done',
      'rate_limits.updated',
      'input_audio_buffer.speech_stopped',
      'input_audio_buffer.committed',
      'conversation.item.added',
      'conversation.item.done',
      'conversation.item.input_audio_transcription.completed',
      'response.created',
      'response.output_item.added',
      'conversation.item.added',
      'response.content_part.added',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'conversation.item.done',
      'response.done',
      'rate_limits.updated',
    ]);
    expect(client.ofType('response.done')[0]?.response).toMatchObject({
      status: 'cancelled',
      status_details: { reason: 'turn_detected' },
    });
    expect(client.ofType('conversation.item.input_audio_transcription.completed')[0]).toMatchObject({
      transcript: 'turn it off',
    });
    expect(client.ofType('response.done')[1]?.response).toMatchObject({
      output: [{ content: [{ text: 'Heard: turn it off' }] }],
    });
  });

  test('the session option sets the defaults reported by session.created', async () => {
    const sim = await simulator({
      session: { instructions: 'Bound to the key.', audio: { output: { voice: 'cedar' } } },
    });
    const client = await RawClient.connect(sim);
    expect(client.events[0]?.session).toMatchObject({
      instructions: 'Bound to the key.',
      audio: { output: { voice: 'cedar', speed: 1 }, input: { format: { type: 'audio/pcm', rate: 24000 } } },
    });
  });

  test('refuseNextResponse refuses exactly one response.create, echoing its event_id', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    sim.refuseNextResponse({ code: 'rate_limit_exceeded', message: 'Slow down.' });
    client.send({ type: 'response.create', event_id: 'first' });
    client.send({ type: 'response.create', event_id: 'second' });
    await client.waitFor('response.done');
    expect(client.ofType('error').map((e) => e.error)).toEqual([
      {
        type: 'invalid_request_error',
        code: 'rate_limit_exceeded',
        message: 'Slow down.',
        param: null,
        event_id: 'first',
      },
    ]);
    expect(client.ofType('response.created')).toHaveLength(1);
  });

  test('a refused collision names its request by default, null when it carried none; echoEventId: false names none', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    const collision = {
      code: 'conversation_already_has_active_response',
      message: 'Conversation already has an active response in progress: resp_vad.',
    };
    sim.refuseNextResponse(collision);
    client.send({ type: 'response.create', event_id: 'named' });
    await client.waitFor('error');
    sim.refuseNextResponse(collision);
    client.send({ type: 'response.create' });
    await client.waitFor('error', 2);
    sim.refuseNextResponse({ ...collision, echoEventId: false });
    client.send({ type: 'response.create', event_id: 'unnamed' });
    await client.waitFor('error', 3);
    expect(client.ofType('error').map((e) => (e.error as { event_id: unknown }).event_id)).toEqual([
      'named',
      null,
      null,
    ]);
    expect(client.ofType('response.created')).toEqual([]);
  });

  test('a message with audioMs has exactly that much audio, however the text splits', async () => {
    const sim = await simulator({ chunkMs: 70 });
    const client = await RawClient.connect(sim);
    sim.script({ type: 'message', text: 'one two three four five', audioMs: 333 });
    client.send({ type: 'response.create' });
    await client.waitFor('response.done');
    const bytes = client
      .ofType('response.output_audio.delta')
      .reduce((n, e) => n + Buffer.from(e.delta as string, 'base64').length, 0);
    expect(bytes).toBe(333 * 48);
  });

  test('onClientEvent reports every client event with its connection until unsubscribed', async () => {
    const sim = await simulator();
    const seen: string[] = [];
    const off = sim.onClientEvent(({ connectionId, event }) =>
      seen.push(`${connectionId}:${(event as { type: string }).type}`),
    );
    const client = await RawClient.connect(sim);
    client.send({ type: 'input_audio_buffer.clear' });
    await client.waitFor('input_audio_buffer.cleared');
    off();
    client.send({ type: 'input_audio_buffer.clear' });
    await client.waitFor('input_audio_buffer.cleared', 2);
    expect(seen).toEqual(['conn_1:input_audio_buffer.clear']);
  });
});

describe('the seam view of the wire', () => {
  test('every command the adapter sends reads back as the same command', async () => {
    const { connection, server } = await connected({}, {}, { instructions: 'connect-time' });
    const commands: RealtimeCommand[] = [
      {
        type: 'updateSession',
        config: {
          instructions: 'B',
          tools: [{ name: 't', description: 'd', parameters: { type: 'object' } }],
          toolChoice: 'required',
          voice: 'ash',
          outputModalities: ['text'],
          turnDetection: { createResponse: false, providerOptions: { type: 'server_vad', threshold: 0.6 } },
          inputTranscription: { model: 'whisper-1', language: 'en' },
        },
      },
      { type: 'appendInputAudio', audio: new Uint8Array([1, 2, 3, 4]) },
      { type: 'commitInputAudio' },
      {
        type: 'createItem',
        item: { type: 'message', itemId: 'm1', role: 'user', content: [{ type: 'text', text: 'hi' }] },
      },
      {
        type: 'createItem',
        item: { type: 'function_call', callId: 'c1', name: 'f', arguments: '{}' },
      },
      { type: 'sendToolOutput', callId: 'c1', output: 'ok' },
      { type: 'deleteItem', itemId: 'm1' },
      { type: 'truncateItem', itemId: 'x', heardMs: 10 },
      {
        type: 'createResponse',
        clientRequestId: 'r1',
        ephemeral: true,
        instructions: 'I',
        tools: [],
        toolChoice: 'none',
      },
      { type: 'cancelResponse', responseId: 'resp_1' },
      { type: 'cancelResponse' },
    ];
    for (const command of commands) connection.send(command);
    await server.waitForClientEvent('response.cancel', 2);
    const read = seamCommandsOf(server.clientEvents);
    expect(read).toHaveLength(commands.length);
    // session.update carries the complete merged session, so the read-back update holds the connect-time fields too
    expect(read[0]).toEqual({
      type: 'updateSession',
      config: commands[0]?.type === 'updateSession' ? commands[0].config : {},
    });
    expect(read.slice(1)).toEqual(commands.slice(1));
  });

  test('sessionToSeamConfig reads a reported GA session; unknown events are not commands', () => {
    expect(
      sessionToSeamConfig({
        type: 'realtime',
        instructions: 'x',
        tools: [],
        tool_choice: 'auto',
        output_modalities: ['audio'],
        audio: { input: { turn_detection: null, transcription: null }, output: { voice: 'alloy' } },
      }),
    ).toEqual({
      instructions: 'x',
      tools: [],
      toolChoice: 'auto',
      outputModalities: ['audio'],
      voice: 'alloy',
      turnDetection: null,
      inputTranscription: null,
    });
    expect(clientEventToCommand({ type: 'conversation.item.retrieve', item_id: 'x' })).toBeUndefined();
    expect(clientEventToCommand('not json')).toBeUndefined();
  });
});
