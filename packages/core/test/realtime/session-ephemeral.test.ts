import { EventRecorder } from '@parley/conformance';
import {
  Agent,
  EphemeralResponseInFlightError,
  type OutputGuardrail,
  RealtimeSession,
  ResponseTimeoutError,
  UserError,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel, mockPcm16 } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { lookup } from './fixtures.js';

const agent = new Agent({ name: 'Bank', instructions: 'Help customers.', tools: [lookup] });

async function connected(
  options: {
    ephemeralResponse?: boolean;
    responseTimeoutMs?: number;
    outputGuardrails?: OutputGuardrail[];
  } = {},
) {
  const clock = new ManualClock();
  const model = new MockRealtimeModel({
    capabilities: { ephemeralResponse: options.ephemeralResponse ?? true },
  });
  const session = new RealtimeSession(agent, {
    model,
    clock,
    ...(options.responseTimeoutMs !== undefined && { responseTimeoutMs: options.responseTimeoutMs }),
    ...(options.outputGuardrails && { outputGuardrails: options.outputGuardrails }),
  });
  const log = new EventRecorder(session);
  await session.connect();
  return { model, session, log, clock };
}

const ephemeral = { instructions: 'Read the code 4711 to the user.', addToHistory: false } as const;

describe('ephemeral responses', () => {
  test('go out of band with tools off; heard, but remembered by neither the history nor the provider', async () => {
    const judged: string[] = [];
    const guardrail: OutputGuardrail = {
      name: 'judge',
      execute: ({ agentOutput }) => {
        judged.push(String(agentOutput));
        return { tripwireTriggered: false };
      },
    };
    const { model, session, log } = await connected({ outputGuardrails: [guardrail] });
    model.respondWith('Hello.');
    session.sendMessage('Hi');
    await flushMicrotasks();
    const history = session.history;
    const conversation = model.connection.conversation;
    const eventCount = log.events.length;

    model.respondWith('Your code is 4711.');
    const reply = session.generateResponse(ephemeral);
    const responseId = await reply;
    expect(await reply.done).toEqual({ responseId, status: 'completed' });
    await flushMicrotasks();
    expect(model.commands.at(-1)).toEqual({
      type: 'createResponse',
      clientRequestId: reply.clientRequestId,
      ephemeral: true,
      instructions: 'Read the code 4711 to the user.',
      tools: [],
      toolChoice: 'none',
    });
    expect(session.history).toEqual(history);
    expect(model.connection.conversation).toEqual(conversation);
    const later = log.events.slice(eventCount);
    expect(later.map((e) => e.type)).not.toContain('history_added');
    expect(later.map((e) => e.type)).not.toContain('history_updated');
    const spoken = later
      .filter((e) => e.type === 'transcript_delta')
      .map((e) => e.delta)
      .join('');
    expect(spoken).toBe('Your code is 4711.');
    expect(later.some((e) => e.type === 'audio')).toBe(true);
    const carriers = later
      .filter((e) => !['audio', 'transcript_delta'].includes(e.type))
      .filter((e) => JSON.stringify(e, (k, v) => (k === 'agent' ? undefined : v)).includes('4711'));
    expect(carriers).toEqual([]);
    // Output guardrails judge conversation responses only: the ephemeral words are the app's own.
    expect(judged.join(' ')).not.toContain('4711');
    expect(log.of('warning')).toEqual([]);
    await session.close();
  });

  test('a toolChoice passed with an ephemeral response is overridden, with a warning', async () => {
    const { model, session, log } = await connected();
    model.respondWith('Done.');
    await session.generateResponse({ ...ephemeral, toolChoice: 'required' }).done;
    expect(model.commands.at(-1)).toMatchObject({ ephemeral: true, tools: [], toolChoice: 'none' });
    expect(log.of('warning')).toEqual([expect.objectContaining({ code: 'ephemeral_tools_off' })]);
    await session.close();
  });

  test('one at a time: a second one is rejected with the in-flight request, response and age; ordinary replies go on', async () => {
    const { model, session, log, clock } = await connected();
    model.connection.dropNextResponseRequest();
    const first = session.generateResponse(ephemeral);
    await clock.advance(40);
    const early = session.generateResponse(ephemeral);
    const earlyError = (await early.catch((e: unknown) => e)) as EphemeralResponseInFlightError;
    expect(earlyError).toBeInstanceOf(EphemeralResponseInFlightError);
    expect(earlyError).toMatchObject({
      code: 'ephemeral_response_in_flight',
      inFlightRequestId: first.clientRequestId,
      inFlightResponseId: undefined,
      ageMs: 40,
    });
    expect(earlyError.message).toContain('not started yet');
    // The provider starts the first one late.
    model.connection.emit({
      type: 'response_started',
      responseId: 'resp_eph',
      clientRequestId: first.clientRequestId,
      ephemeral: true,
    });
    await flushMicrotasks();
    await clock.advance(210);
    const second = session.generateResponse(ephemeral);
    const error = (await second.catch((e: unknown) => e)) as EphemeralResponseInFlightError;
    expect(error).toMatchObject({ inFlightResponseId: 'resp_eph', ageMs: 250 });
    expect(error.message).toMatch(/request req_\w+_1, response resp_eph, requested 250 ms ago/);
    await expect(second.done).rejects.toBe(error);
    expect(log.of('error').map((e) => e.code)).toEqual([
      'ephemeral_response_in_flight',
      'ephemeral_response_in_flight',
    ]);
    // Not sent to the provider at all.
    expect(model.commands.filter((c) => c.type === 'createResponse')).toHaveLength(1);

    model.respondWith('Ordinary.');
    expect((await session.generateResponse().done).status).toBe('completed');

    model.connection.emit({
      type: 'response_done',
      responseId: 'resp_eph',
      status: 'completed',
      ephemeral: true,
      clientRequestId: first.clientRequestId,
    });
    await flushMicrotasks();
    expect(await first.done).toEqual({ responseId: 'resp_eph', status: 'completed' });
    model.respondWith('Again.');
    expect((await session.generateResponse(ephemeral).done).status).toBe('completed');
    await session.close();
  });

  test('the slot is freed when the provider refuses the reply or it times out', async () => {
    const { model, session, clock } = await connected({ responseTimeoutMs: 1000 });
    model.connection.refuseNextResponse('server_error');
    await expect(session.generateResponse(ephemeral)).rejects.toMatchObject({ code: 'response_refused' });
    model.connection.dropNextResponseRequest();
    const lost = session.generateResponse(ephemeral);
    await clock.advance(1000);
    await expect(lost).rejects.toBeInstanceOf(ResponseTimeoutError);
    model.respondWith('Finally.');
    expect((await session.generateResponse(ephemeral).done).status).toBe('completed');
    await session.close();
  });

  test('interrupt() cancels it by its response id; nothing is truncated or deleted', async () => {
    const { model, session, log } = await connected();
    model.respondWith({
      output: [{ type: 'message', text: 'Your code is 4711.', audio: { ms: 400 }, pauseAfterChunks: 2 }],
    });
    const reply = session.generateResponse(ephemeral);
    const responseId = await reply;
    await flushMicrotasks();
    session.interrupt();
    session.interrupt();
    expect(await reply.done).toEqual({ responseId, status: 'cancelled' });
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type !== 'createResponse')).toEqual([
      { type: 'cancelResponse', responseId },
    ]);
    expect(log.of('audio_interrupted')).toEqual([expect.objectContaining({ responseId })]);
    expect(session.history).toEqual([]);
    model.respondWith('Next.');
    expect((await session.generateResponse(ephemeral).done).status).toBe('completed');
    await session.close();
  });

  test('interrupted before the provider created it: cancelled on arrival, its trailing events ignored', async () => {
    const { model, session, log } = await connected();
    model.connection.dropNextResponseRequest();
    const reply = session.generateResponse(ephemeral);
    await flushMicrotasks();
    session.interrupt();
    await flushMicrotasks();
    expect(model.commands.some((c) => c.type === 'cancelResponse')).toBe(false);
    // The slot is free at once.
    model.respondWith('Another one.');
    expect((await session.generateResponse(ephemeral).done).status).toBe('completed');
    await flushMicrotasks();
    const eventCount = log.events.length;

    const c = model.connection;
    const responseId = 'resp_abandoned';
    c.emit({
      type: 'response_started',
      responseId,
      clientRequestId: reply.clientRequestId,
      ephemeral: true,
    });
    c.emit({ type: 'message_started', responseId, itemId: 'item_x' });
    c.emit({ type: 'audio_delta', responseId, itemId: 'item_x', audio: mockPcm16(100) });
    c.emit({ type: 'transcript_delta', responseId, itemId: 'item_x', delta: 'Your code' });
    c.emit({ type: 'response_done', responseId, status: 'cancelled', ephemeral: true });
    await flushMicrotasks();
    expect(model.commands.at(-1)).toEqual({ type: 'cancelResponse', responseId });
    const later = log.events.slice(eventCount).map((e) => e.type);
    expect(later).not.toContain('audio');
    expect(later).not.toContain('transcript_delta');
    expect(later).not.toContain('audio_interrupted');
    expect(await reply.done).toEqual({ responseId, status: 'cancelled' });
    await session.close();
  });

  test('a lost connection drains the bookkeeping: after reconnecting the next ephemeral response is not blocked', async () => {
    const { model, session } = await connected();
    model.respondWith({ output: [{ type: 'message', text: 'Held.' }, { type: 'pause' }] });
    const reply = session.generateResponse(ephemeral);
    await reply;
    model.connection.disconnect();
    await expect(reply.done).rejects.toBeDefined();
    await session.connect();
    model.respondWith('After reconnect.');
    expect((await session.generateResponse(ephemeral).done).status).toBe('completed');
    await session.close();
  });

  test('without ephemeralResponse: a warning, and the reply is an ordinary one that enters history', async () => {
    const { model, session, log } = await connected({ ephemeralResponse: false });
    model.respondWith('Your code is 4711.');
    const reply = session.generateResponse(ephemeral);
    const responseId = await reply;
    await reply.done;
    await flushMicrotasks();
    expect(log.of('warning')).toEqual([
      expect.objectContaining({
        code: 'ephemeral_response_unsupported',
        message: expect.stringContaining('enters the conversation'),
      }),
    ]);
    expect(model.commands.at(-1)).toMatchObject({
      ephemeral: false,
      instructions: ephemeral.instructions,
    });
    expect(session.history.at(-1)).toMatchObject({ responseId, text: 'Your code is 4711.' });
    await session.close();
  });

  test('a tool call from an ephemeral response (tools are off) is neither run nor remembered', async () => {
    const { model, session, log } = await connected();
    model.respondWith({ output: [{ type: 'function_call', name: 'lookup', arguments: { q: 'x' } }] });
    const reply = session.generateResponse(ephemeral);
    await reply.done;
    await flushMicrotasks();
    expect(log.of('tool_started')).toEqual([]);
    expect(model.commands.some((c) => c.type === 'sendToolOutput')).toBe(false);
    expect(session.history).toEqual([]);
    expect(log.of('warning')).toEqual([expect.objectContaining({ code: 'out_of_band_tool_call_ignored' })]);
    await session.close();
  });

  test('addToHistory must be a boolean', async () => {
    const { session } = await connected();
    expect(() => session.generateResponse({ addToHistory: 'no' as unknown as boolean })).toThrow(UserError);
    await session.close();
  });
});
