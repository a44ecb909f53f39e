import { escapeWatch } from '@parley/conformance';
import {
  Agent,
  ConnectionLostError,
  ResponseRefusedError,
  SessionNotConnectedError,
  tool,
} from '@parley/core';
import { ManualClock } from '@parley/mock';
import { createHold, type SimulatorConnection } from '@parley/simulator';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { connected, simulator } from './helpers.js';
import { SessionUnderTest } from './session-harness.js';

// Anything that escapes as an unhandled rejection or an uncaught exception fails the test that caused it.
const escapes = escapeWatch();
beforeEach(() => escapes.start());
afterEach(async () => expect(await escapes.stop()).toEqual([]));

/** A connected session whose next reply streams `Part one. ` and then waits at a hold. */
async function midResponse(options: { msPerChar?: number } = {}) {
  const sim = await simulator({ msPerChar: options.msPerChar ?? 5 });
  const harness = new SessionUnderTest(sim);
  const server = await harness.connect();
  const hold = createHold('mid-response');
  sim.script({ type: 'message', text: ['Part one. ', hold, 'Part two.'] });
  return { sim, harness, server, hold };
}

/** Resolves once the client has received the part of the held response that precedes the hold. */
async function heardFirstPart(harness: SessionUnderTest, hold: { reached: Promise<void> }) {
  await hold.reached;
  const started = await harness.waitFor('response_started');
  await harness.waitFor(
    'transcript_delta',
    (e) => e.responseId === started.responseId && harness.spokenText(started.responseId) === 'Part one. ',
  );
  // Paced, the part's audio follows its transcript (it is flushed when the response reaches the hold).
  await harness.waitFor('audio');
  return started.responseId;
}

function serverError(
  server: SimulatorConnection,
  error: { code: string | null; type?: string; param?: string | null; message: string },
  eventId: string | null = null,
) {
  server.send({
    type: 'error',
    error: {
      type: error.type ?? 'invalid_request_error',
      code: error.code,
      message: error.message,
      param: error.param ?? null,
      event_id: eventId,
    },
  });
}

describe('the server goes away mid-response', () => {
  test.each([
    ['closes with 1011', (server: SimulatorConnection) => server.close(1011, 'internal error'), 1011],
    ['drops the TCP connection', (server: SimulatorConnection) => server.terminate(), 1006],
  ])('it %s: disconnected, replies fail with ConnectionLostError, nothing leaks', async (_name, fault) => {
    const { harness, server, hold } = await midResponse();
    const { session } = harness;
    const first = session.generateResponse();
    const firstId = await first;
    expect(await heardFirstPart(harness, hold)).toBe(firstId);
    // Queued behind the active response: it will never be sent.
    const second = session.generateResponse();
    const audioBefore = harness.of('audio').length;
    expect(audioBefore).toBeGreaterThan(0);

    fault(server);

    const disconnected = await harness.waitFor('connection_status', (e) => e.status === 'disconnected');
    expect(disconnected.reason).toEqual(expect.any(String));
    expect(session.status).toBe('disconnected');
    await expect(first.done).rejects.toBeInstanceOf(ConnectionLostError);
    await expect(second).rejects.toBeInstanceOf(ConnectionLostError);
    await expect(second.done).rejects.toMatchObject({ code: 'connection_lost' });
    expect(harness.of('agent_done')).toEqual([
      { type: 'agent_done', agent: session.currentAgent, reason: 'disconnect' },
    ]);
    // The cut response is reported as failed (its message marked interrupted), and nothing more arrives.
    expect(harness.of('response_done')).toEqual([
      {
        type: 'response_done',
        responseId: firstId,
        status: 'failed',
        ephemeral: false,
        reason: 'connection_lost',
      },
    ]);
    expect(harness.of('audio')).toHaveLength(audioBefore);
    expect(() => session.sendMessage('still there?')).toThrow(SessionNotConnectedError);
    // The adapter released its socket as soon as the server's side went away.
    await harness.sim.waitForIdle();
    expect(harness.subscriptions).toBe(0);
    expect(harness.connections[0]?.status).toBe('closed');
    hold.release();
    await harness.closeAndExpectReleased();
  });

  test('a tool running when the server goes away is cancelled and awaited; its output is never sent', async () => {
    const sim = await simulator();
    let toolSignal: AbortSignal | undefined;
    let cleanedUp = false;
    let toolStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      toolStarted = resolve;
    });
    const slow = tool({
      name: 'slow_lookup',
      description: 'Looks something up slowly',
      parameters: z.object({ q: z.string() }),
      execute: async (_input, { signal }) => {
        toolSignal = signal;
        toolStarted();
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        await Promise.resolve();
        cleanedUp = true;
        return 'too late';
      },
    });
    const harness = new SessionUnderTest(
      sim,
      new Agent({ name: 'Tools', instructions: 'Use tools.', tools: [slow] }),
    );
    const server = await harness.connect();
    sim.script({ type: 'function_call', name: 'slow_lookup', arguments: { q: 'x' } });
    harness.session.sendMessage('look it up');
    await harness.waitFor('response_done');
    await started;

    server.close(1011, 'internal error');

    await harness.waitFor('connection_status', (e) => e.status === 'disconnected');
    expect(toolSignal?.aborted).toBe(true);
    expect(toolSignal?.reason).toBeInstanceOf(ConnectionLostError);
    await harness.closeAndExpectReleased();
    expect(cleanedUp).toBe(true);
    expect(
      server.clientEvents.filter(
        (e) => (e as { item?: { type?: string } }).item?.type === 'function_call_output',
      ),
    ).toEqual([]);
  });
});

describe('frames the client cannot use', () => {
  test('malformed JSON and events without a type: error events, the response and the session go on', async () => {
    const { harness, server, hold } = await midResponse();
    harness.session.sendMessage('hi');
    const responseId = await heardFirstPart(harness, hold);
    const frames = [
      'this is not JSON',
      // Starts like an audio delta (the adapter's fast path) but is cut off.
      `{"type":"response.output_audio.delta","response_id":"${responseId}","item_id":"x","delta":"AAAA`,
      '{"no_type":true}',
      '{"type":42}',
      '[]',
      'null',
    ];
    for (const frame of frames) server.sendRaw(frame);
    await harness.waitFor('error', () => true, frames.length);
    expect(harness.of('error')).toEqual(
      frames.map(() => ({
        type: 'error',
        source: 'provider',
        code: 'malformed_server_event',
        message: expect.stringMatching(/^The Realtime service sent .+; it was ignored\.$/),
      })),
    );
    hold.release();
    const done = await harness.waitFor('response_done');
    expect(done).toMatchObject({ responseId, status: 'completed' });
    expect(harness.spokenText(responseId)).toBe('Part one. Part two.');
    // Exactly the audio the server sent: the cut-off frame produced none.
    const wireAudio = server.serverEvents.filter((e) => e.type === 'response.output_audio.delta').length;
    expect(harness.of('audio')).toHaveLength(wireAudio);
    expect(harness.session.status).toBe('connected');
    expect((await harness.exchange('again')).transcript).toBe('You said: again');
    await harness.closeAndExpectReleased();
  });

  test('unknown events and unknown fields are ignored without an error', async () => {
    const { harness, server, hold } = await midResponse();
    harness.session.sendMessage('hi');
    const responseId = await heardFirstPart(harness, hold);
    server.send({ type: 'response.brand_new_event', response_id: responseId, payload: { nested: [1, 2] } });
    server.send({
      type: 'conversation.created',
      conversation: { id: 'conv_x', object: 'realtime.conversation' },
    });
    server.send({ type: 'rate_limits.updated', rate_limits: [{ name: 'tokens', limit: 1, remaining: 0 }] });
    server.send({ type: 'output_audio_buffer.started', response_id: responseId });
    server.send({ type: 'mcp_list_tools.in_progress', item_id: 'item_mcp' });
    // A known event with a field the adapter has never heard of.
    server.send({
      type: 'response.output_audio_transcript.delta',
      response_id: responseId,
      item_id: (await harness.waitFor('transcript_delta')).itemId,
      output_index: 0,
      content_index: 0,
      delta: '(aside) ',
      obfuscation: 'Xy',
      brand_new_field: { deep: true },
    });
    hold.release();
    await harness.waitFor('response_done');
    expect(harness.spokenText(responseId)).toBe('Part one. (aside) Part two.');
    expect(harness.of('error')).toEqual([]);
    expect((await harness.exchange('again')).transcript).toBe('You said: again');
    await harness.closeAndExpectReleased();
  });
});

/** Every code of the protocol reference §5, and the other codes it lists as reported. */
const NON_FATAL_ERRORS: { code: string | null; type?: string; param?: string; message: string }[] = [
  {
    code: 'conversation_already_has_active_response',
    message:
      'Conversation already has an active response in progress: resp_X. Wait until the response is finished before creating a new one.',
  },
  { code: 'response_cancel_not_active', message: 'Cancellation failed: no active response found' },
  {
    code: 'input_audio_buffer_commit_empty',
    message:
      'Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has 0.00ms of audio.',
  },
  {
    code: 'invalid_value',
    param: 'audio_end_ms',
    message: 'Audio content of 100ms is already shorter than 101ms',
  },
  {
    code: 'invalid_value',
    param: 'type',
    message: "Invalid value: 'x.y'. Supported values are: 'session.update'.",
  },
  {
    code: 'invalid_value',
    param: 'session.audio.input.turn_detection.threshold',
    message: "Invalid value: '7'. Expected a value between 0 and 1.",
  },
  {
    code: 'missing_required_parameter',
    param: 'session.type',
    message: "Missing required parameter: 'session.type'.",
  },
  {
    code: 'unknown_parameter',
    param: 'session.modalities',
    message: "Unknown parameter: 'session.modalities'.",
  },
  {
    code: 'item_truncate_invalid_item_id',
    param: 'item_id',
    message: "Error truncating item: the item with id 'item_x' does not exist.",
  },
  {
    code: 'item_delete_invalid_item_id',
    message: "Error deleting item: the item with id 'item_x' does not exist.",
  },
  {
    code: 'item_retrieve_invalid_item_id',
    param: 'item_id',
    message: "Error retrieving item: the item with id 'item_x' does not exist.",
  },
  {
    code: 'cannot_update_voice',
    message: "Cannot update a conversation's voice if assistant audio is present.",
  },
  { code: 'invalid_event', message: "The 'type' field is missing." },
  {
    code: null,
    message: 'Passing a transcription session update event to a realtime session is not allowed.',
  },
  {
    code: 'model_not_found',
    message: 'The model `gpt-nope` does not exist or you do not have access to it.',
  },
  { code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  { code: 'insufficient_quota', message: 'You exceeded your current quota.' },
  { code: 'rate_limit_exceeded', message: 'Rate limit reached.' },
  { code: null, type: 'server_error', message: 'The server had an error while processing your request.' },
];

describe('an error event for every code of the reference', () => {
  test.each(
    NON_FATAL_ERRORS.map((e) => [e.code ?? `${e.type ?? 'invalid_request_error'} (no code)`, e] as const),
  )('%s: reported mid-response and as a refusal; the session stays usable', async (_name, error) => {
    const expectedCode = error.code ?? error.type ?? 'invalid_request_error';
    const { harness, server, hold, sim } = await midResponse();
    const { session } = harness;
    session.sendMessage('hi');
    const responseId = await heardFirstPart(harness, hold);

    // Unsolicited, in the middle of a response.
    serverError(server, error);
    expect(await harness.waitFor('error')).toEqual({
      type: 'error',
      source: 'provider',
      code: expectedCode,
      message: error.message,
    });
    expect(session.status).toBe('connected');
    hold.release();
    expect(await harness.waitFor('response_done')).toMatchObject({ responseId, status: 'completed' });
    expect(harness.spokenText(responseId)).toBe('Part one. Part two.');

    // Refusing a reply request: the handle rejects with a typed error and the queue moves on.
    sim.refuseNextResponse({
      code: error.code,
      message: error.message,
      ...(error.type && { type: error.type }),
    });
    const refused = session.generateResponse();
    const failure = await refused.catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ResponseRefusedError);
    expect(failure).toMatchObject({
      code: 'response_refused',
      providerCode: expectedCode,
      clientRequestId: refused.clientRequestId,
    });
    await expect(refused.done).rejects.toBe(failure);
    expect(harness.of('error').at(-1)).toEqual({
      type: 'error',
      source: 'provider',
      code: expectedCode,
      message: error.message,
      error: failure,
      clientRequestId: refused.clientRequestId,
    });

    expect((await harness.exchange('still there?')).transcript).toBe('You said: still there?');
    expect(harness.of('connection_status').map((e) => e.status)).toEqual(['connecting', 'connected']);
    await harness.closeAndExpectReleased();
  });

  test('session_expired (error, then close 1001): fatal, disconnected, pending replies fail typed', async () => {
    const { harness, server, hold } = await midResponse();
    const { session } = harness;
    const first = session.generateResponse();
    await first;
    await heardFirstPart(harness, hold);
    const second = session.generateResponse();

    server.expire();

    const disconnected = await harness.waitFor('connection_status', (e) => e.status === 'disconnected');
    const errors = harness.of('error');
    expect(errors).toEqual([
      {
        type: 'error',
        source: 'provider',
        code: 'session_expired',
        message: 'Your session hit the maximum duration of 60 minutes.',
        fatal: true,
      },
      expect.objectContaining({ type: 'error', source: 'session', code: 'turn_lost' }),
    ]);
    expect(harness.events.indexOf(errors[0] as never)).toBeLessThan(harness.events.indexOf(disconnected));
    expect(disconnected.reason).toContain('session_expired');
    await expect(first.done).rejects.toBeInstanceOf(ConnectionLostError);
    await expect(second).rejects.toBeInstanceOf(ConnectionLostError);
    expect(() => session.sendMessage('hello?')).toThrow(SessionNotConnectedError);
    await harness.sim.waitForIdle();
    expect(await server.closed).toEqual({
      code: 1001,
      reason: 'Your session hit the maximum duration of 60 minutes.',
    });
    hold.release();
    await harness.closeAndExpectReleased();
  });

  test('beta_api_shape_disabled without a close from the server: the session closes the socket itself', async () => {
    const { harness, server, hold } = await midResponse();
    const { session } = harness;
    const first = session.generateResponse();
    await heardFirstPart(harness, hold);

    serverError(server, {
      code: 'beta_api_shape_disabled',
      message: 'The beta Realtime API shape is no longer supported.',
    });

    await harness.waitFor('connection_status', (e) => e.status === 'disconnected');
    expect(harness.of('error')).toEqual([
      {
        type: 'error',
        source: 'provider',
        code: 'beta_api_shape_disabled',
        message: 'The beta Realtime API shape is no longer supported.',
        fatal: true,
      },
      expect.objectContaining({ type: 'error', source: 'session', code: 'turn_lost' }),
    ]);
    await expect(first.done).rejects.toBeInstanceOf(ConnectionLostError);
    // Before close(): the session has already let go of the unusable connection.
    await harness.sim.waitForIdle();
    expect((await server.closed).code).toBe(1000);
    expect(harness.connections[0]?.status).toBe('closed');
    expect(harness.subscriptions).toBe(0);
    hold.release();
    await harness.closeAndExpectReleased();
  });
});

describe('a listener that throws', () => {
  test('is reported like an EventTarget does it; other listeners and later frames are still served', async () => {
    const reported: unknown[] = [];
    vi.stubGlobal('reportError', (error: unknown) => reported.push(error));
    try {
      const clock = new ManualClock();
      const { connection, log, server, sim } = await connected({}, { clock });
      const boom = new Error('listener boom');
      connection.onEvent((event) => {
        if (event.type === 'input_speech_started') throw boom;
      });
      server.send({ type: 'input_audio_buffer.speech_started', item_id: 'item_a', audio_start_ms: 10 });
      server.send({ type: 'input_audio_buffer.speech_started', item_id: 'item_b', audio_start_ms: 20 });
      server.send({ type: 'input_audio_buffer.speech_stopped', item_id: 'item_b', audio_end_ms: 900 });
      await log.waitFor('input_speech_stopped');
      expect(log.ofType('input_speech_started')).toEqual([
        { type: 'input_speech_started' },
        { type: 'input_speech_started' },
      ]);
      expect(reported).toEqual([boom, boom]);
      expect(connection.status).toBe('open');
      // The socket still reads: the closing handshake completes without the close timeout.
      await connection.close();
      expect(clock.pendingTimers).toBe(0);
      await sim.waitForIdle();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('closing', () => {
  test('close() in the middle of a response releases everything and fails the pending replies', async () => {
    const { harness, hold } = await midResponse();
    const { session } = harness;
    const first = session.generateResponse();
    await heardFirstPart(harness, hold);
    const second = session.generateResponse();
    const closing = harness.closeAndExpectReleased();
    await expect(first.done).rejects.toMatchObject({ code: 'session_closed' });
    await expect(second).rejects.toMatchObject({ code: 'session_closed' });
    await closing;
    hold.release();
    expect(harness.of('connection_status').map((e) => e.status)).toEqual([
      'connecting',
      'connected',
      'closed',
    ]);
  });
});
