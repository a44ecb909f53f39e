import { type RealtimeSessionOptions, StaleResponseError } from '@parley/core';
import { createHold } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { simulator } from './helpers.js';
import { SessionUnderTest } from './session-harness.js';

const REPLY_TIMEOUT_MS = 5_000;
const STALE_MS = 20_000;

async function rig(options: Omit<RealtimeSessionOptions, 'model' | 'clock'> = {}) {
  const sim = await simulator();
  const harness = new SessionUnderTest(sim, undefined, {
    responseTimeoutMs: REPLY_TIMEOUT_MS,
    staleResponseMs: STALE_MS,
    ...options,
  });
  const server = await harness.connect();
  return { sim, harness, server };
}

describe('a response that never ends cannot block a session on the OpenAI adapter', () => {
  test('a message queued behind it is not lost: at its response timeout the silent response is cancelled by id and dropped, then the message is answered', async () => {
    const { sim, harness, server } = await rig({ config: { outputModalities: ['text'] } });
    const hold = createHold('never-ends');
    sim.script({ type: 'message', text: ['Well, ', hold, 'never said.'] }, 'Yes, still here.');
    harness.session.sendMessage('Hello?');
    await hold.reached;
    const { responseId } = await harness.waitFor('response_started');
    // Its last event before it stalls.
    await harness.waitFor('text_delta', (e) => e.delta === 'Well, ');

    harness.session.sendMessage('Are you there?');
    await harness.clock.advance(REPLY_TIMEOUT_MS);
    const dropped = await harness.waitFor('response_done', (e) => e.responseId === responseId);
    expect(dropped).toMatchObject({ status: 'failed', reason: 'stale' });
    const error = harness.of('error').find((e) => e.code === 'response_stale')?.error;
    expect(error).toBeInstanceOf(StaleResponseError);
    const cancel = await server.waitForClientEvent('response.cancel');
    expect(cancel.response_id).toBe(responseId);
    // Cancelled first, then the queued request went out; the service answers the message.
    await server.waitForClientEvent('response.create', 2);
    const order = server.clientEvents
      .map((e) => (e as { type: string }).type)
      .filter((type) => type === 'response.cancel' || type === 'response.create');
    expect(order).toEqual(['response.create', 'response.cancel', 'response.create']);
    const answer = await harness.waitFor('response_done', (e) => e.responseId !== responseId);
    expect(answer).toMatchObject({ status: 'completed' });
    expect(harness.session.history.at(-1)).toMatchObject({ text: 'Yes, still here.' });
    // The service ended the held response on the cancel: the session already ended it.
    expect(harness.of('response_done').filter((e) => e.responseId === responseId)).toHaveLength(1);
    expect(harness.of('error').map((e) => e.code)).toEqual(['response_stale']);
    hold.release();
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
