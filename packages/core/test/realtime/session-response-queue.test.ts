import { EventRecorder } from '@parley/conformance';
import {
  Agent,
  FollowUpLimitError,
  MAX_ERROR_FOLLOW_UPS,
  type OutputGuardrail,
  RealtimeSession,
  ResponseRefusedError,
  tool,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel, type MockResponseStep } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const echo = tool({
  name: 'echo',
  description: 'Echoes its text',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});
const agent = new Agent({ name: 'Echo', tools: [echo] });

/** A session over a mock that does not start tool follow-ups itself unless `auto` says so. */
async function start(options: { auto?: boolean; agent?: Agent; outputGuardrails?: OutputGuardrail[] } = {}) {
  const clock = new ManualClock();
  const model = new MockRealtimeModel({
    capabilities: { autoToolResponseGeneration: options.auto ?? false },
  });
  const session = new RealtimeSession(options.agent ?? agent, {
    model,
    clock,
    ...(options.outputGuardrails && {
      outputGuardrails: options.outputGuardrails,
      guardrailDebounceChars: 5,
    }),
  });
  const log = new EventRecorder(session);
  await session.connect();
  const creates = () => model.commands.filter((c) => c.type === 'createResponse');
  return { clock, model, session, log, creates };
}

const held = (text: string) => ({
  output: [{ type: 'message', text } as MockResponseStep, { type: 'pause' } as MockResponseStep],
});

describe('a refused response request releases the queue', () => {
  test('a refusal that names no request (no event id) refuses the one in flight and sends the next at once', async () => {
    const { model, session, log, creates } = await start();
    model.connection.refuseNextResponse(
      'conversation_already_has_active_response',
      'Conversation already has an active response in progress: resp_vad.',
      { echoRequestId: false },
    );
    model.respondWith('Second.');
    const first = session.generateResponse();
    const second = session.generateResponse();
    expect(creates()).toHaveLength(1);
    await expect(first).rejects.toBeInstanceOf(ResponseRefusedError);
    await flushMicrotasks();
    // Without the release the second request would wait for the response timeout (the clock never moves).
    expect(creates().map((c) => c.clientRequestId)).toEqual([first.clientRequestId, second.clientRequestId]);
    await expect(second).resolves.toEqual(expect.any(String));
    const error = log.of('error')[0]!;
    expect(error).toMatchObject({
      source: 'provider',
      code: 'conversation_already_has_active_response',
      clientRequestId: first.clientRequestId,
    });
    await session.close();
  });
});

describe('queued inputs coalesce', () => {
  test('several user messages sent during one response lead to one follow-up response', async () => {
    const { model, session, creates } = await start();
    model.respondWith(held('Let me think.'), 'One answer for all three.');
    session.sendMessage('First question.');
    await flushMicrotasks();
    session.sendMessage('Second.');
    session.sendMessage('Third.');
    await flushMicrotasks();
    expect(creates()).toHaveLength(1);
    model.connection.resume();
    await flushMicrotasks();
    expect(creates()).toHaveLength(2);
    expect(session.history.at(-1)).toMatchObject({ text: 'One answer for all three.' });
    await session.close();
  });

  test('a reply the app asked for with its own instructions stays its own request', async () => {
    const { model, session, creates } = await start();
    model.respondWith(held('Hm.'), 'Answer.', 'Summary.');
    session.sendMessage('Question.');
    await flushMicrotasks();
    session.sendMessage('More.');
    const reply = session.generateResponse({ instructions: 'Summarize.' });
    model.connection.resume();
    await reply.done;
    await flushMicrotasks();
    expect(creates()).toHaveLength(3);
    expect(creates()[2]).toMatchObject({ instructions: 'Summarize.' });
    await session.close();
  });
});

describe("a tool follow-up and the app's queued generateResponse()", () => {
  /** A response that calls `echo`, then holds until resumed: the call's output goes out while it is active. */
  const callingHeld = {
    output: [
      {
        type: 'function_call',
        name: 'echo',
        arguments: { text: 'hi' },
        callId: 'call_echo',
      } as MockResponseStep,
      { type: 'pause' } as MockResponseStep,
    ],
  };

  test('a plain generateResponse() waiting in the queue is joined by the follow-up: one response answers both', async () => {
    const { model, session, log, creates } = await start();
    model.respondWith(callingHeld, 'Echoed, and here is your reply.', 'Never asked for.');
    session.sendMessage('Echo hi.');
    await flushMicrotasks();
    expect(log.of('tool_done')).toHaveLength(1);
    const reply = session.generateResponse();
    model.connection.resume();
    const { responseId } = await reply.done;
    await flushMicrotasks();
    expect(creates()).toHaveLength(2);
    expect(creates()[1]).toEqual({
      type: 'createResponse',
      clientRequestId: reply.clientRequestId,
      ephemeral: false,
    });
    expect(log.of('response_started').at(-1)).toMatchObject({
      responseId,
      clientRequestId: reply.clientRequestId,
    });
    expect(session.history.at(-1)).toMatchObject({ text: 'Echoed, and here is your reply.' });
    await session.close();
  });

  test('a generateResponse() with options keeps its own request: the follow-up is a second response after it', async () => {
    const { model, session, log, creates } = await start();
    model.respondWith(callingHeld, 'Summary.', 'Echoed.');
    session.sendMessage('Echo hi.');
    await flushMicrotasks();
    expect(log.of('tool_done')).toHaveLength(1);
    const reply = session.generateResponse({ instructions: 'Summarize.' });
    model.connection.resume();
    await reply.done;
    await flushMicrotasks();
    expect(creates()).toHaveLength(3);
    expect(creates()[1]).toMatchObject({
      clientRequestId: reply.clientRequestId,
      instructions: 'Summarize.',
    });
    expect(creates()[2]).not.toHaveProperty('instructions');
    expect(creates()[2]?.clientRequestId).not.toBe(reply.clientRequestId);
    expect(session.history.at(-1)).toMatchObject({ text: 'Echoed.' });
    await session.close();
  });

  test('a generateResponse() never joins a queued request: behind queued user input it is a response of its own', async () => {
    const { model, session, creates } = await start();
    model.respondWith(held('Hm.'), 'Answer.', 'Reply.');
    session.sendMessage('Question.');
    await flushMicrotasks();
    session.sendMessage('More.');
    const reply = session.generateResponse();
    model.connection.resume();
    await reply.done;
    await flushMicrotasks();
    expect(creates()).toHaveLength(3);
    expect(creates()[2]).toMatchObject({ clientRequestId: reply.clientRequestId });
    await session.close();
  });
});

describe('a provider that starts tool follow-ups itself', () => {
  test('a request queued during the tool turn waits until the provider follow-up has ended', async () => {
    const { model, session, log, creates } = await start({ auto: true });
    model.respondWith(
      { output: [{ type: 'function_call', name: 'echo', arguments: { text: 'hi' } }, { type: 'pause' }] },
      'The tool said hi.',
      'And this is the reply the app asked for.',
    );
    session.sendMessage('Call echo.');
    await flushMicrotasks();
    const reply = session.generateResponse();
    model.connection.resume();
    await flushMicrotasks();
    await expect(reply).resolves.toEqual(expect.any(String));
    await reply.done;
    expect(log.of('error')).toEqual([]);
    expect(creates()).toHaveLength(2);
    expect(log.of('response_done').map((e) => e.status)).toEqual(['completed', 'completed', 'completed']);
    expect(
      session.history.flatMap((i) => (i.type === 'message' && i.role === 'assistant' ? [i.text] : [])),
    ).toEqual(['The tool said hi.', 'And this is the reply the app asked for.']);
    await session.close();
  });

  test('if the provider never starts its follow-up, the queue moves on after the response timeout', async () => {
    const { clock, model, session, creates } = await start({ auto: true });
    // A tool turn the provider ends without ever starting its follow-up.
    model.connection.emit({ type: 'response_started', responseId: 'resp_t', ephemeral: false });
    model.connection.emit({
      type: 'function_call',
      responseId: 'resp_t',
      itemId: 'item_t',
      callId: 'call_t',
      name: 'echo',
      arguments: '{"text":"hi"}',
    });
    await flushMicrotasks();
    model.connection.emit({
      type: 'response_done',
      responseId: 'resp_t',
      status: 'completed',
      ephemeral: false,
    });
    await flushMicrotasks();
    // Asked 5 s into the wait: it is sent when the wait ends, within its own response timeout.
    await clock.advance(5_000);
    model.respondWith('The reply the app asked for.');
    const reply = session.generateResponse();
    await flushMicrotasks();
    expect(creates()).toHaveLength(0);
    await clock.advance(10_000);
    await flushMicrotasks();
    expect(creates()).toHaveLength(1);
    await expect(reply).resolves.toEqual(expect.any(String));
    await session.close();
  });
});

describe('automatic follow-ups that only answer errors are bounded', () => {
  test('a model calling a missing tool again and again gets a bounded number of follow-ups, then an error event', async () => {
    const { model, session, log, creates } = await start();
    const missing = (i: number) => ({
      output: [
        { type: 'function_call', name: 'missing', arguments: {}, callId: `call_${i}` } as MockResponseStep,
      ],
    });
    model.respondWith(...Array.from({ length: 1 + MAX_ERROR_FOLLOW_UPS }, (_, i) => missing(i)), 'Fine.');
    session.sendMessage('Go.');
    await flushMicrotasks();
    expect(creates()).toHaveLength(1 + MAX_ERROR_FOLLOW_UPS);
    const stopped = log.of('error').filter((e) => e.code === 'follow_up_limit');
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.error).toBeInstanceOf(FollowUpLimitError);
    // The next user input goes on as usual.
    session.sendMessage('Try again.');
    await flushMicrotasks();
    expect(creates()).toHaveLength(2 + MAX_ERROR_FOLLOW_UPS);
    await session.close();
  });

  test('a guardrail that always trips gets a bounded number of corrections', async () => {
    const always: OutputGuardrail = {
      name: 'never_happy',
      execute: () => ({ tripwireTriggered: true, outputInfo: {} }),
    };
    const { model, session, log, creates } = await start({ outputGuardrails: [always] });
    // Each response is still running when its trip lands, so each gets a correction, until the bound.
    model.respondWith(...Array.from({ length: 20 }, () => held('Some words that will trip.')));
    session.sendMessage('Talk.');
    await flushMicrotasks();
    expect(creates()).toHaveLength(1 + MAX_ERROR_FOLLOW_UPS);
    expect(log.of('error').filter((e) => e.code === 'follow_up_limit')).toHaveLength(1);
    await session.close();
  });

  test('a tool call that succeeds starts the count again', async () => {
    const { model, session, log, creates } = await start();
    const missing = (i: number) => ({
      output: [
        { type: 'function_call', name: 'missing', arguments: {}, callId: `m_${i}` } as MockResponseStep,
      ],
    });
    const good = { output: [{ type: 'function_call', name: 'echo', arguments: { text: 'x' }, callId: 'g' }] };
    model.respondWith(
      ...Array.from({ length: MAX_ERROR_FOLLOW_UPS }, (_, i) => missing(i)),
      good as { output: MockResponseStep[] },
      'Done.',
    );
    session.sendMessage('Go.');
    await flushMicrotasks();
    expect(log.of('error').filter((e) => e.code === 'follow_up_limit')).toEqual([]);
    expect(creates()).toHaveLength(MAX_ERROR_FOLLOW_UPS + 2);
    expect(session.history.at(-1)).toMatchObject({ text: 'Done.' });
    await session.close();
  });
});

describe('a tool output that cannot be sent', () => {
  test('is reported as an error event, and the turn still ends in exactly one follow-up response', async () => {
    const { model, session, log, creates } = await start();
    model.respondWith(
      { output: [{ type: 'function_call', name: 'echo', arguments: { text: 'hi' }, callId: 'call_1' }] },
      'Sorry, the tool result got lost.',
    );
    model.connection.failNextSend('sendToolOutput');
    session.sendMessage('Call echo.');
    await flushMicrotasks();
    expect(log.of('error').map((e) => e.code)).toEqual(['tool_output_not_sent']);
    expect(creates()).toHaveLength(2);
    expect(log.of('response_done')).toHaveLength(2);
    expect(session.history.at(-1)).toMatchObject({ text: 'Sorry, the tool result got lost.' });
    await session.close();
  });
});
