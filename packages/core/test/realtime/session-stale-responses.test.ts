import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession, ResponseTimeoutError, StaleResponseError, tool } from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const REPLY_TIMEOUT_MS = 5_000;
const STALE_MS = 20_000;

/** A connected session over a mock whose provider events the test writes itself (`emit`). */
async function start() {
  const clock = new ManualClock();
  const model = new MockRealtimeModel({ clock });
  const session = new RealtimeSession(new Agent({ name: 'Patient' }), {
    model,
    clock,
    responseTimeoutMs: REPLY_TIMEOUT_MS,
    staleResponseMs: STALE_MS,
  });
  const log = new EventRecorder(session);
  await session.connect();
  const creates = () => model.commands.filter((c) => c.type === 'createResponse');
  const started = (responseId: string, clientRequestId?: string) =>
    model.connection.emit({
      type: 'response_started',
      responseId,
      ephemeral: false,
      ...(clientRequestId !== undefined && { clientRequestId }),
    });
  const done = (responseId: string, clientRequestId?: string) =>
    model.connection.emit({
      type: 'response_done',
      responseId,
      status: 'completed',
      ephemeral: false,
      usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
      ...(clientRequestId !== undefined && { clientRequestId }),
    });
  return { clock, model, session, log, creates, started, done };
}

/** Asks for a reply the mock records but never answers: the test plays the provider's answer. */
function unansweredReply(rig: Awaited<ReturnType<typeof start>>) {
  rig.model.connection.dropNextResponseRequest();
  return rig.session.generateResponse();
}

describe('responses whose start and end arrive out of order cannot block the session', () => {
  test('response_done before its response_started: the reply resolves, the late start is ignored, the queue moves on', async () => {
    const rig = await start();
    const { session, log, creates, started, done } = rig;
    const reply = unansweredReply(rig);
    await flushMicrotasks();
    done('resp_early', reply.clientRequestId);
    await flushMicrotasks();
    await expect(reply).resolves.toBe('resp_early');
    await expect(reply.done).resolves.toEqual({ responseId: 'resp_early', status: 'completed' });
    started('resp_early', reply.clientRequestId);
    await flushMicrotasks();
    // No turn is invented for the late start: the next request goes out at once.
    rig.model.respondWith('Next.');
    const next = session.generateResponse();
    await flushMicrotasks();
    expect(creates().map((c) => c.clientRequestId)).toEqual([reply.clientRequestId, next.clientRequestId]);
    await expect(next).resolves.toEqual(expect.any(String));
    expect(log.of('response_started').map((e) => e.responseId)).not.toContain('resp_early');
    expect(log.of('response_done').filter((e) => e.responseId === 'resp_early')).toHaveLength(1);
    expect(log.of('warning')).toContainEqual(expect.objectContaining({ code: 'response_event_ignored' }));
    await session.close();
  });

  test('response_started twice: one response_started event, and the queue moves on after its one end', async () => {
    const rig = await start();
    const { session, log, creates, started, done } = rig;
    started('resp_twice');
    started('resp_twice');
    await flushMicrotasks();
    const reply = unansweredReply(rig);
    await flushMicrotasks();
    expect(creates()).toHaveLength(0);
    done('resp_twice');
    await flushMicrotasks();
    expect(creates().map((c) => c.clientRequestId)).toEqual([reply.clientRequestId]);
    expect(log.of('response_started').filter((e) => e.responseId === 'resp_twice')).toHaveLength(1);
    expect(log.of('warning').filter((e) => e.code === 'response_event_ignored')).toHaveLength(1);
    await session.close();
  });

  test('response_done twice: one response_done event, its usage counted once, no extra turn', async () => {
    const rig = await start();
    const { session, log, creates, started, done } = rig;
    started('resp_d');
    done('resp_d');
    done('resp_d');
    await flushMicrotasks();
    expect(log.of('response_done').filter((e) => e.responseId === 'resp_d')).toHaveLength(1);
    expect(session.usage).toMatchObject({ requests: 1, totalTokens: 3 });
    expect(creates()).toHaveLength(0);
    await session.close();
  });
});

describe('a response that never ends cannot block the session', () => {
  test('a message queued behind a response that stalls is not lost: the stalled response is dropped first, then it is answered', async () => {
    const { clock, model, session, log, creates } = await start();
    // The provider starts a response, says a word, then sends nothing more.
    model.respondWith({ output: [{ type: 'message', text: 'Well' }, { type: 'pause' }] }, 'Yes, I am here.');
    session.sendMessage('Hello?');
    await flushMicrotasks();
    const stalled = log.of('response_started')[0]?.responseId as string;
    session.sendMessage('Are you there?');
    await flushMicrotasks();
    // Checked every third of the response timeout while the message waits: silent that long, it is dropped.
    const windowMs = Math.floor(REPLY_TIMEOUT_MS / 3);
    await clock.advance(windowMs - 1);
    expect(creates()).toHaveLength(1);
    await clock.advance(1);
    await flushMicrotasks();
    // Dropped (and cancelled) first, then the queued request went out.
    const cancel = model.commands.findIndex((c) => c.type === 'cancelResponse');
    const create = model.commands.findLastIndex((c) => c.type === 'createResponse');
    expect(model.commands[cancel]).toEqual({ type: 'cancelResponse', responseId: stalled });
    expect(create).toBeGreaterThan(cancel);
    expect(creates()).toHaveLength(2);
    // The app learns of the stall.
    expect(log.of('response_done')[0]).toMatchObject({
      responseId: stalled,
      status: 'failed',
      reason: 'stale',
    });
    const errors = log.of('error');
    expect(errors.map((e) => e.code)).toEqual(['response_stale']);
    expect(errors[0]?.error).toBeInstanceOf(StaleResponseError);
    expect(errors[0]?.error).toMatchObject({
      responseId: stalled,
      blockedRequestId: creates()[1]?.clientRequestId,
    });
    expect(errors[0]?.message).toContain(`sent no event for ${windowMs} ms while request`);
    // The message is answered; nothing timed out.
    const answer = log.of('response_done').at(-1);
    expect(answer).toMatchObject({ status: 'completed' });
    expect(answer?.responseId).not.toBe(stalled);
    expect(session.history.at(-1)).toMatchObject({ text: 'Yes, I am here.' });
    expect(log.of('error').filter((e) => e.code === 'response_timeout')).toEqual([]);
    await session.close();
  });

  test('a response that sends a last event just after the message was queued, then stalls, is dropped within two checks: the message is still answered', async () => {
    const { clock, model, session, log, creates, started } = await start();
    started('resp_trailing');
    await flushMicrotasks();
    model.respondWith('Here.');
    session.sendMessage('Still there?');
    model.connection.emit({
      type: 'transcript_delta',
      responseId: 'resp_trailing',
      itemId: 'item_1',
      delta: 'and',
    });
    await flushMicrotasks();
    const windowMs = Math.floor(REPLY_TIMEOUT_MS / 3);
    await clock.advance(2 * windowMs - 1);
    expect(creates()).toHaveLength(0);
    await clock.advance(1);
    await flushMicrotasks();
    expect(creates()).toHaveLength(1);
    expect(log.of('response_done')[0]).toMatchObject({ responseId: 'resp_trailing', reason: 'stale' });
    expect(session.history.at(-1)).toMatchObject({ text: 'Here.' });
    expect(log.of('error').filter((e) => e.code === 'response_timeout')).toEqual([]);
    await session.close();
  });

  test('a request queued behind a response that keeps sending events times out with the response timeout, counted from when it was made', async () => {
    const rig = await start();
    const { clock, model, session, log, creates, started } = rig;
    started('resp_long');
    await flushMicrotasks();
    const reply = session.generateResponse();
    const settled = reply.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    for (let ms = 0; ms < REPLY_TIMEOUT_MS - 1_000; ms += 1_000) {
      await clock.advance(1_000);
      model.connection.emit({
        type: 'transcript_delta',
        responseId: 'resp_long',
        itemId: 'item_1',
        delta: 'and ',
      });
      await flushMicrotasks();
    }
    await clock.advance(999);
    expect(creates()).toHaveLength(0);
    await clock.advance(1);
    const error = await settled;
    expect(error).toBeInstanceOf(ResponseTimeoutError);
    expect(error).toMatchObject({ clientRequestId: reply.clientRequestId, timeoutMs: REPLY_TIMEOUT_MS });
    expect(log.of('error').map((e) => e.error)).toEqual([error]);
    // Named on the event, where the app reads a refused request's id.
    expect(log.of('error')[0]?.clientRequestId).toBe(reply.clientRequestId);
    // The streaming response was not dropped.
    expect(log.of('response_done')).toEqual([]);
    expect(model.commands.filter((c) => c.type === 'cancelResponse')).toEqual([]);
    await session.close();
  });

  test('a started response that sends nothing for staleResponseMs is cancelled by id, ended failed (stale) and reported', async () => {
    const rig = await start();
    const { clock, model, session, log, creates, started } = rig;
    const first = unansweredReply(rig);
    await flushMicrotasks();
    started('resp_silent', first.clientRequestId);
    await flushMicrotasks();
    await expect(first).resolves.toBe('resp_silent');
    // Within one window nothing happens; after a whole silent window it is dropped.
    await clock.advance(STALE_MS - 1);
    expect(log.of('response_done')).toHaveLength(0);
    await clock.advance(STALE_MS + 1);
    await flushMicrotasks();
    expect(log.of('response_done')).toEqual([
      expect.objectContaining({ responseId: 'resp_silent', status: 'failed', reason: 'stale' }),
    ]);
    const stale = log.of('error').find((e) => e.code === 'response_stale');
    expect(stale?.error).toBeInstanceOf(StaleResponseError);
    expect(stale?.error).toMatchObject({ responseId: 'resp_silent', staleResponseMs: STALE_MS });
    expect(model.commands).toContainEqual({ type: 'cancelResponse', responseId: 'resp_silent' });
    await expect(first.done).resolves.toEqual({ responseId: 'resp_silent', status: 'failed' });
    // The session is free again: the next request goes out at once.
    model.respondWith('Back.');
    const next = session.generateResponse();
    await flushMicrotasks();
    expect(creates().map((c) => c.clientRequestId)).toEqual([first.clientRequestId, next.clientRequestId]);
    await expect(next).resolves.toEqual(expect.any(String));
    await session.close();
  });

  test('the stale error event names the request the dropped response answered (clientRequestId)', async () => {
    const rig = await start();
    const { clock, log, started } = rig;
    const reply = unansweredReply(rig);
    await flushMicrotasks();
    started('resp_requested', reply.clientRequestId);
    await flushMicrotasks();
    await clock.advance(2 * STALE_MS);
    await flushMicrotasks();
    const stale = log.of('error').filter((e) => e.code === 'response_stale');
    expect(stale).toEqual([expect.objectContaining({ clientRequestId: reply.clientRequestId })]);
    expect(stale[0]?.error).toMatchObject({
      responseId: 'resp_requested',
      clientRequestId: reply.clientRequestId,
    });
    await rig.session.close();
  });

  test('a stale response the provider started on its own carries no clientRequestId, nor one it never asked for', async () => {
    const rig = await start();
    const { clock, log, started } = rig;
    started('resp_own');
    started('resp_foreign', 'not_a_request_of_this_session');
    await flushMicrotasks();
    await clock.advance(2 * STALE_MS);
    await flushMicrotasks();
    const stale = log.of('error').filter((e) => e.code === 'response_stale');
    expect(stale.map((e) => (e.error as StaleResponseError).responseId).sort()).toEqual([
      'resp_foreign',
      'resp_own',
    ]);
    for (const event of stale) {
      expect(event).not.toHaveProperty('clientRequestId');
      expect((event.error as StaleResponseError).clientRequestId).toBeUndefined();
    }
    await rig.session.close();
  });

  test('a request queued behind a stale response goes out when it is dropped, within its response timeout', async () => {
    const clock = new ManualClock();
    const model = new MockRealtimeModel({ clock });
    const session = new RealtimeSession(new Agent({ name: 'Patient' }), {
      model,
      clock,
      responseTimeoutMs: 60_000,
      staleResponseMs: STALE_MS,
    });
    await session.connect();
    model.connection.emit({ type: 'response_started', responseId: 'resp_hung', ephemeral: false });
    await flushMicrotasks();
    model.respondWith('Finally.');
    const reply = session.generateResponse();
    await clock.advance(2 * STALE_MS);
    await flushMicrotasks();
    await expect(reply).resolves.toEqual(expect.any(String));
    await session.close();
  });

  test('late events of a dropped response are ignored: no second response_done, no audio, no new turn', async () => {
    const rig = await start();
    const { clock, model, session, log, creates, started, done } = rig;
    started('resp_late');
    await flushMicrotasks();
    await clock.advance(2 * STALE_MS);
    await flushMicrotasks();
    expect(log.of('response_done')).toHaveLength(1);
    model.connection.emit({ type: 'message_started', responseId: 'resp_late', itemId: 'item_late' });
    model.connection.emit({
      type: 'audio_delta',
      responseId: 'resp_late',
      itemId: 'item_late',
      audio: new Uint8Array(480),
    });
    started('resp_late');
    done('resp_late');
    await flushMicrotasks();
    expect(log.of('response_done')).toHaveLength(1);
    expect(log.of('response_started')).toHaveLength(1);
    expect(log.of('audio')).toHaveLength(0);
    expect(creates()).toHaveLength(0);
    expect(session.usage.requests).toBe(0);
    expect(log.of('warning').filter((e) => e.code === 'response_event_ignored')).toHaveLength(2);
    await session.close();
  });

  test('a tool call of a dropped response arriving late is not run and gets no output or follow-up', async () => {
    const { clock, model, runs, session, log } = await sessionWithDroppedResponse();
    const cancels = model.commands.filter((c) => c.type === 'cancelResponse');
    model.connection.emit({
      type: 'function_call',
      responseId: 'resp_gone',
      itemId: 'item_call',
      callId: 'call_late',
      name: 'lookup',
      arguments: '{"key":"late"}',
    });
    await flushMicrotasks();
    await clock.advance(STALE_MS);
    await flushMicrotasks();
    expect(runs).toEqual([]);
    expect(log.of('tool_started')).toHaveLength(0);
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toHaveLength(0);
    expect(model.commands.filter((c) => c.type === 'createResponse')).toHaveLength(0);
    expect(model.commands.filter((c) => c.type === 'cancelResponse')).toEqual(cancels);
    expect(log.of('warning')).toContainEqual(
      expect.objectContaining({
        code: 'response_event_ignored',
        message: expect.stringContaining('call_late'),
      }),
    );
    expect(session.history.some((item) => 'callId' in item && item.callId === 'call_late')).toBe(false);
    await session.close();
  });

  test('a dropped response stays dropped after many later responses: its late call never runs, its late start and end are ignored', async () => {
    const { clock, model, runs, session, log } = await sessionWithDroppedResponse();
    // A long session goes on: far more responses than the session keeps track of start and end.
    for (let i = 0; i < 100; i++) {
      model.connection.emit({ type: 'response_started', responseId: `resp_${i}`, ephemeral: false });
      model.connection.emit({
        type: 'response_done',
        responseId: `resp_${i}`,
        status: 'completed',
        ephemeral: false,
      });
    }
    await flushMicrotasks();
    const ended = log.of('response_done').length;
    const started = log.of('response_started').length;

    model.connection.emit({ type: 'response_started', responseId: 'resp_gone', ephemeral: false });
    model.connection.emit({
      type: 'function_call',
      responseId: 'resp_gone',
      itemId: 'item_call',
      callId: 'call_late',
      name: 'lookup',
      arguments: '{"key":"late"}',
    });
    model.connection.emit({
      type: 'response_done',
      responseId: 'resp_gone',
      status: 'completed',
      ephemeral: false,
    });
    await flushMicrotasks();
    await clock.advance(STALE_MS);
    await flushMicrotasks();

    expect(runs).toEqual([]);
    expect(log.of('tool_started')).toHaveLength(0);
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toHaveLength(0);
    expect(log.of('response_started')).toHaveLength(started);
    expect(log.of('response_done')).toHaveLength(ended);
    const ignored = log.of('warning').filter((w) => w.code === 'response_event_ignored');
    expect(ignored.map((w) => w.message)).toEqual([
      expect.stringContaining('resp_gone'),
      expect.stringContaining('call_late'),
      expect.stringContaining('resp_gone'),
    ]);
    expect(session.history.some((item) => 'callId' in item && item.callId === 'call_late')).toBe(false);
    await session.close();
  });

  test('a response that keeps sending events is never dropped, however long it runs', async () => {
    const rig = await start();
    const { clock, model, session, log, started, done } = rig;
    started('resp_long');
    model.connection.emit({ type: 'message_started', responseId: 'resp_long', itemId: 'item_long' });
    for (let i = 0; i < 10; i++) {
      await clock.advance(STALE_MS / 2);
      model.connection.emit({
        type: 'transcript_delta',
        responseId: 'resp_long',
        itemId: 'item_long',
        delta: `${i} `,
      });
      await flushMicrotasks();
    }
    expect(log.of('response_done')).toHaveLength(0);
    expect(log.of('error')).toHaveLength(0);
    done('resp_long');
    await flushMicrotasks();
    expect(log.of('response_done')).toEqual([
      expect.objectContaining({ responseId: 'resp_long', status: 'completed' }),
    ]);
    expect(clock.pendingTimers).toBe(0);
    await session.close();
  });

  test('staleResponseMs must be a positive number', () => {
    expect(
      () =>
        new RealtimeSession(new Agent({ name: 'x' }), { model: new MockRealtimeModel(), staleResponseMs: 0 }),
    ).toThrow(/staleResponseMs/);
  });
});

/** A session with a `lookup` tool whose response `resp_gone` went silent and was dropped as stale. */
async function sessionWithDroppedResponse() {
  const clock = new ManualClock();
  const model = new MockRealtimeModel({ clock });
  const runs: string[] = [];
  const lookup = tool({
    name: 'lookup',
    description: 'Looks a key up',
    parameters: z.object({ key: z.string() }),
    execute: ({ key }) => {
      runs.push(key);
      return `value of ${key}`;
    },
  });
  const session = new RealtimeSession(new Agent({ name: 'Looker', tools: [lookup] }), {
    model,
    clock,
    staleResponseMs: STALE_MS,
  });
  const log = new EventRecorder(session);
  await session.connect();
  model.connection.emit({ type: 'response_started', responseId: 'resp_gone', ephemeral: false });
  await flushMicrotasks();
  await clock.advance(2 * STALE_MS);
  await flushMicrotasks();
  expect(log.of('error').map((e) => e.error)).toContainEqual(expect.any(StaleResponseError));
  return { clock, model, runs, session, log };
}
