import { ResponseTimeoutError, StaleResponseError } from '@parley/core';
import { createHold } from '@parley/openai/testing';
import { describe, expect, test } from 'vitest';
import { sent, simulator } from './helpers.js';
import { SessionUnderTest } from './session-harness.js';

const REPLY_TIMEOUT_MS = 5_000;
const STALE_MS = 20_000;

async function rig() {
  const sim = await simulator();
  const harness = new SessionUnderTest(sim, undefined, {
    responseTimeoutMs: REPLY_TIMEOUT_MS,
    staleResponseMs: STALE_MS,
  });
  const server = await harness.connect();
  return { sim, harness, server };
}

describe('a response that never ends cannot block a session on the OpenAI adapter', () => {
  test('a request queued behind it times out; the silent response is cancelled by id and dropped; its late response.done is ignored', async () => {
    const { sim, harness, server } = await rig();
    const hold = createHold('never-ends');
    sim.script({ type: 'message', text: [hold, 'Never said.'] });
    harness.session.sendMessage('Hello?');
    await hold.reached;
    const { responseId } = await harness.waitFor('response_started');

    const queued = harness.session.generateResponse();
    const outcome = queued.then(
      () => 'started',
      (error: unknown) => error,
    );
    await harness.clock.advance(REPLY_TIMEOUT_MS);
    expect(await outcome).toBeInstanceOf(ResponseTimeoutError);

    await harness.clock.advance(2 * STALE_MS);
    const dropped = await harness.waitFor('response_done', (e) => e.responseId === responseId);
    expect(dropped).toMatchObject({ status: 'failed', reason: 'stale' });
    const error = harness.of('error').find((e) => e.code === 'response_stale')?.error;
    expect(error).toBeInstanceOf(StaleResponseError);
    const cancel = await server.waitForClientEvent('response.cancel');
    expect(cancel.response_id).toBe(responseId);
    // The service answers the cancel with the held response's response.done: the session already ended it.
    await harness.waitFor('warning', (w) => w.code === 'response_event_ignored');
    expect(harness.of('response_done').filter((e) => e.responseId === responseId)).toHaveLength(1);
    // The queued request timed out and is never sent; the session answers the next message as usual.
    expect(sent(server, 'response.create')).toHaveLength(1);
    sim.script('Back again.');
    expect((await harness.exchange('Still there?')).transcript).toBe('Back again.');
    await harness.closeAndExpectReleased();
  });

  test('response.done before its response.created: the late response.created starts no turn and blocks nothing', async () => {
    const { sim, harness, server } = await rig();
    const response = {
      id: 'resp_reordered',
      object: 'realtime.response',
      output: [],
      conversation_id: 'conv_1',
    };
    server.send({ type: 'response.done', response: { ...response, status: 'completed' } });
    server.send({ type: 'response.created', response: { ...response, status: 'in_progress' } });
    await harness.waitFor('warning', (w) => w.code === 'response_event_ignored');
    expect(harness.of('response_started')).toHaveLength(0);
    sim.script('Not blocked.');
    expect((await harness.exchange('Anyone?')).transcript).toBe('Not blocked.');
    await harness.closeAndExpectReleased();
  });

  test('response.created twice and response.done twice: one turn, one end', async () => {
    const { sim, harness, server } = await rig();
    const response = {
      id: 'resp_echoed',
      object: 'realtime.response',
      output: [],
      conversation_id: 'conv_1',
    };
    server.send({ type: 'response.created', response: { ...response, status: 'in_progress' } });
    server.send({ type: 'response.created', response: { ...response, status: 'in_progress' } });
    server.send({ type: 'response.done', response: { ...response, status: 'completed' } });
    server.send({ type: 'response.done', response: { ...response, status: 'completed' } });
    await harness.waitFor('warning', (w) => w.code === 'response_event_ignored', 2);
    expect(harness.of('response_started').map((e) => e.responseId)).toEqual(['resp_echoed']);
    expect(harness.of('response_done').map((e) => e.responseId)).toEqual(['resp_echoed']);
    sim.script('Fine.');
    expect((await harness.exchange('Still fine?')).transcript).toBe('Fine.');
    await harness.closeAndExpectReleased();
  });
});
