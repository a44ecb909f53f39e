import { ManualClock } from '@parley/mock';
import { createHold } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { API_KEY, connected, sent } from './helpers.js';

describe('errors map to seam error events with code, clientRequestId and commandType', () => {
  test('conversation_already_has_active_response answers the refused createResponse', async () => {
    const { connection, log, sim } = await connected();
    const hold = createHold();
    sim.script([
      { type: 'hold', hold },
      { type: 'message', text: 'first' },
    ]);
    connection.send({ type: 'createResponse', clientRequestId: 'req_1', ephemeral: false });
    await hold.reached;
    connection.send({ type: 'createResponse', clientRequestId: 'req_2', ephemeral: false });
    const error = await log.waitFor('error');
    const started = log.ofType('response_started')[0];
    expect(error).toEqual({
      type: 'error',
      code: 'conversation_already_has_active_response',
      message: `Conversation already has an active response in progress: ${started?.responseId}. Wait until the response is finished before creating a new one.`,
      clientRequestId: 'req_2',
      commandType: 'createResponse',
    });
    hold.release();
    expect(await log.waitFor('response_done')).toMatchObject({
      clientRequestId: 'req_1',
      status: 'completed',
    });
    expect(connection.status).toBe('open');
  });

  test('response_cancel_not_active, input_audio_buffer_commit_empty, truncate and delete of unknown items', async () => {
    const { connection, log } = await connected({}, {}, { turnDetection: null });
    connection.send({ type: 'cancelResponse' });
    connection.send({ type: 'appendInputAudio', audio: new Uint8Array(48 * 50) });
    connection.send({ type: 'commitInputAudio' });
    connection.send({ type: 'truncateItem', itemId: 'item_nope', heardMs: 10 });
    connection.send({ type: 'deleteItem', itemId: 'item_gone' });
    await log.waitFor('error', 4);
    expect(log.ofType('error')).toEqual([
      {
        type: 'error',
        code: 'response_cancel_not_active',
        message: 'Cancellation failed: no active response found',
        commandType: 'cancelResponse',
      },
      {
        type: 'error',
        code: 'input_audio_buffer_commit_empty',
        message: expect.stringContaining('buffer only has 50.00ms of audio'),
        commandType: 'commitInputAudio',
      },
      {
        type: 'error',
        code: 'item_truncate_invalid_item_id',
        message: "Error truncating item: the item with id 'item_nope' does not exist.",
        commandType: 'truncateItem',
      },
      {
        type: 'error',
        code: 'item_delete_invalid_item_id',
        message: "Error deleting item: the item with id 'item_gone' does not exist.",
        commandType: 'deleteItem',
      },
    ]);
  });

  test('truncating beyond the received audio: invalid_value with the real message', async () => {
    const { connection, log, sim } = await connected({ msPerChar: 10 });
    sim.script('0123456789'); // 10 characters = 100 ms of audio
    connection.send({ type: 'createResponse', clientRequestId: 'r', ephemeral: false });
    const { itemId } = await log.waitFor('message_done');
    connection.send({ type: 'truncateItem', itemId, heardMs: 101 });
    connection.send({ type: 'truncateItem', itemId, heardMs: 100 });
    expect(await log.waitFor('error')).toEqual({
      type: 'error',
      code: 'invalid_value',
      message: 'Audio content of 100ms is already shorter than 101ms',
      commandType: 'truncateItem',
    });
    expect(await log.waitFor('item_truncated')).toEqual({ type: 'item_truncated', itemId, heardMs: 100 });
  });

  test('session.update problems: invalid_value, unknown_parameter, cannot_update_voice; the session survives', async () => {
    const { connection, log, server, sim } = await connected({}, {}, { voice: 'marin' });
    connection.send({
      type: 'updateSession',
      config: {
        providerData: { audio: { input: { turn_detection: { type: 'server_vad', threshold: 7 } } } },
      },
    });
    await log.waitFor('error');
    connection.send({ type: 'updateSession', config: { providerData: { modalities: ['text'] } } });
    await log.waitFor('error', 2);
    sim.script('Hi');
    connection.send({ type: 'createResponse', clientRequestId: 'r', ephemeral: false });
    await log.waitFor('response_done');
    connection.send({ type: 'updateSession', config: { voice: 'cedar', instructions: 'new' } });
    await log.waitFor('error', 3);
    expect(log.ofType('error')).toEqual([
      {
        type: 'error',
        code: 'invalid_value',
        message: "Invalid value: '7'. Expected a value between 0 and 1.",
        commandType: 'updateSession',
      },
      {
        type: 'error',
        code: 'unknown_parameter',
        message: "Unknown parameter: 'session.modalities'.",
        commandType: 'updateSession',
      },
      {
        type: 'error',
        code: 'cannot_update_voice',
        message: "Cannot update a conversation's voice if assistant audio is present.",
        commandType: 'updateSession',
      },
    ]);
    // Rejected updates change nothing on the server.
    expect(server.session.instructions).not.toBe('new');
    expect(server.session.audio?.output?.voice).toBe('marin');
    const updates = sent(server, 'session.update');
    expect(updates).toHaveLength(4);
    // The refused fields are not repeated in later updates.
    expect(updates[3]?.session).not.toHaveProperty('modalities');
    expect(updates[3]?.session).toMatchObject({ instructions: 'new', audio: { output: { voice: 'cedar' } } });
    const lastSession = updates[3]?.session as { audio: { input: Record<string, unknown> } };
    expect(lastSession.audio.input).not.toHaveProperty('turn_detection');
    expect(connection.status).toBe('open');
  });

  test('codes the seam cannot provoke map from whatever event id they echo', async () => {
    const { log, server } = await connected();
    const inject = (code: string | null, eventId: string | null, type = 'invalid_request_error') =>
      server.send({
        type: 'error',
        error: { type, code, message: `m:${code}`, param: null, event_id: eventId },
      });
    inject('invalid_value', 'parley.createItem.41');
    inject('missing_required_parameter', 'parley.updateSession.3');
    inject('item_retrieve_invalid_item_id', null);
    inject('invalid_event', 'someone-elses-id');
    inject(null, null, 'server_error');
    await log.waitFor('error', 5);
    expect(log.ofType('error')).toEqual([
      { type: 'error', code: 'invalid_value', message: 'm:invalid_value', commandType: 'createItem' },
      {
        type: 'error',
        code: 'missing_required_parameter',
        message: 'm:missing_required_parameter',
        commandType: 'updateSession',
      },
      { type: 'error', code: 'item_retrieve_invalid_item_id', message: 'm:item_retrieve_invalid_item_id' },
      { type: 'error', code: 'invalid_event', message: 'm:invalid_event' },
      { type: 'error', code: 'server_error', message: 'm:null' },
    ]);
  });
});

describe('secrets in what the service sends', () => {
  test('error messages and close reasons reach the app without the key or anything shaped like one', async () => {
    const { log, server } = await connected();
    const masked = `sk-test-${'*'.repeat(16)}${API_KEY.slice(-4)}`;
    server.send({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code: 'invalid_api_key',
        message: `Incorrect API key provided: ${masked}. Also ${API_KEY} and ek_abc123XYZ.`,
        param: null,
        event_id: null,
      },
    });
    server.close(4001, `bad key ${API_KEY}`);
    await log.waitFor('connection_status', 2);
    const [error] = log.ofType('error');
    expect(error?.message).toBe(
      'Incorrect API key provided: sk-[redacted] Also [redacted] and ek_[redacted]',
    );
    expect(log.ofType('connection_status')[1]).toMatchObject({ reason: 'bad key [redacted]' });
    const shown = JSON.stringify(log.events);
    expect(shown).not.toContain(API_KEY.slice(-4));
    expect(shown).not.toContain('abc123XYZ');
  });
});

describe('a key echoed into every field of an error event', () => {
  test('no field of the error event the app gets keeps it (code, message, and the rest)', async () => {
    const { log, server } = await connected();
    server.send({
      type: 'error',
      event_id: API_KEY,
      error: { type: API_KEY, code: API_KEY, message: API_KEY, param: API_KEY, event_id: API_KEY },
    });
    const error = await log.waitFor('error');
    expect(error).toMatchObject({ code: '[redacted]', message: '[redacted]' });
    expect(JSON.stringify(log.events)).not.toContain(API_KEY);
  });
});

describe('the end of a connection', () => {
  test('session_expired: the neutral session_expired event, then disconnected; nothing left open', async () => {
    const clock = new ManualClock();
    const { connection, log, sim } = await connected({ clock, sessionLimitMs: 30 * 60_000 });
    await clock.advance(30 * 60_000 - 1);
    expect(connection.status).toBe('open');
    await clock.advance(1);
    const disconnected = await log.waitFor('connection_status', 2);
    expect(log.events.slice(-2)).toEqual([
      { type: 'session_expired', message: 'Your session hit the maximum duration of 30 minutes.' },
      disconnected,
    ]);
    expect(disconnected).toEqual({
      type: 'connection_status',
      status: 'disconnected',
      reason: 'Your session hit the maximum duration of 30 minutes.',
    });
    expect(connection.status).toBe('closed');
    expect(() => connection.send({ type: 'commitInputAudio' })).toThrow(/closed/);
    await sim.waitForIdle();
    expect(clock.pendingTimers).toBe(0);
  });

  test('beta_api_shape_disabled is fatal; close 4000 is reported with its reason', async () => {
    const { log, server } = await connected();
    server.send({
      type: 'error',
      error: { type: 'invalid_request_error', code: 'beta_api_shape_disabled', message: 'beta', param: null },
    });
    server.close(4000, 'beta_api_shape_disabled');
    await log.waitFor('connection_status', 2);
    expect(log.events.slice(-2)).toEqual([
      { type: 'error', code: 'beta_api_shape_disabled', message: 'beta', fatal: true },
      { type: 'connection_status', status: 'disconnected', reason: 'beta_api_shape_disabled' },
    ]);
  });

  test('the server closing mid-response: disconnected with its reason, close() still resolves', async () => {
    const { connection, log, sim } = await connected();
    const hold = createHold();
    sim.script({ type: 'message', text: ['Half of ', hold, 'it'] });
    connection.send({ type: 'createResponse', clientRequestId: 'r', ephemeral: false });
    await hold.reached;
    (await sim.waitForConnection()).close(1011, 'internal error');
    expect(await log.waitFor('connection_status', 2)).toEqual({
      type: 'connection_status',
      status: 'disconnected',
      reason: 'internal error',
    });
    expect(log.ofType('response_done')).toEqual([]);
    await connection.close();
    await sim.waitForIdle();
  });

  test('a dropped TCP connection (1006) is reported as disconnected', async () => {
    const { log, server, sim } = await connected();
    server.terminate();
    const status = await log.waitFor('connection_status', 2);
    expect(status).toMatchObject({ status: 'disconnected' });
    await sim.waitForIdle();
  });

  test('a close by the owner emits no disconnected event', async () => {
    const { connection, log, sim } = await connected();
    await connection.close();
    await sim.waitForIdle();
    expect(log.ofType('connection_status')).toEqual([{ type: 'connection_status', status: 'connected' }]);
  });
});
