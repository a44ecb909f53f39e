import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession, tool } from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel, type MockResponseStep } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

function countingAgent(options: { needsApproval?: boolean } = {}) {
  const runs: string[] = [];
  const lookup = tool({
    name: 'lookup',
    description: 'Looks a key up',
    parameters: z.object({ key: z.string() }),
    needsApproval: options.needsApproval ?? false,
    execute: ({ key }) => {
      runs.push(key);
      return `value of ${key}`;
    },
  });
  const other = tool({
    name: 'other',
    description: 'Another tool',
    parameters: z.object({ key: z.string() }),
    execute: ({ key }) => {
      runs.push(`other:${key}`);
      return 'other';
    },
  });
  return { agent: new Agent({ name: 'Looker', tools: [lookup, other] }), runs };
}

const call = (key: string, extra: Partial<Extract<MockResponseStep, { type: 'function_call' }>> = {}) =>
  ({ type: 'function_call', name: 'lookup', arguments: { key }, callId: 'call_A', ...extra }) as const;

async function start(options: { needsApproval?: boolean; clock?: ManualClock } = {}) {
  const { agent, runs } = countingAgent(options);
  // The session requests tool follow-ups itself: the test counts them.
  const model = new MockRealtimeModel({
    capabilities: { autoToolResponseGeneration: false },
    ...(options.clock && { clock: options.clock }),
  });
  const session = new RealtimeSession(agent, {
    model,
    ...(options.clock && { clock: options.clock, reconnect: { jitter: 0 } }),
  });
  const log = new EventRecorder(session);
  await session.connect();
  const outputs = () =>
    model.connections.flatMap((c) => c.commands).filter((c) => c.type === 'sendToolOutput');
  return { model, session, log, runs, outputs };
}

describe('a function call id runs at most once per session', () => {
  test('the same call delivered again in a later response does not run again or send a second output', async () => {
    const { model, session, log, runs, outputs } = await start();
    model.respondWith({ output: [call('a')] }, 'Done.', { output: [call('a')] }, 'Still done.');
    session.sendMessage('Look a up.');
    await flushMicrotasks();
    expect(runs).toEqual(['a']);
    session.sendMessage('And again?');
    await flushMicrotasks();
    expect(runs).toEqual(['a']);
    expect(outputs()).toHaveLength(1);
    expect(log.of('tool_started')).toHaveLength(1);
    expect(log.of('warning').map((w) => w.code)).toContain('tool_call_repeated');
    expect(log.of('error')).toEqual([]);
    await session.close();
  });

  test('a known call id with changed arguments or another tool name is reported as an error, not run', async () => {
    const { model, session, log, runs, outputs } = await start();
    model.respondWith({ output: [call('a')] }, 'Done.', {
      output: [call('b'), call('c', { name: 'other' })],
    });
    session.sendMessage('Look a up.');
    await flushMicrotasks();
    session.sendMessage('Now b.');
    await flushMicrotasks();
    expect(runs).toEqual(['a']);
    expect(outputs()).toHaveLength(1);
    const errors = log.of('error');
    expect(errors.map((e) => [e.source, e.code])).toEqual([
      ['tool', 'tool_call_conflict'],
      ['tool', 'tool_call_conflict'],
    ]);
    expect(errors[1]!.message).toContain('"other" instead of "lookup"');
    await session.close();
  });

  test('duplicate call ids inside one response: one run, one output, one follow-up, nothing left pending', async () => {
    const { model, session, runs, outputs } = await start();
    model.respondWith({ output: [call('a'), call('a')] }, 'Done.');
    const reply = session.generateResponse();
    await reply.done;
    await flushMicrotasks();
    expect(runs).toEqual(['a']);
    expect(outputs()).toHaveLength(1);
    const creates = model.commands.filter((c) => c.type === 'createResponse');
    expect(creates).toHaveLength(2);
    expect(session.history.at(-1)).toMatchObject({ type: 'message', text: 'Done.' });
    await session.close();
  });

  test('a rejected call delivered again is not asked about again', async () => {
    const { model, session, log, runs, outputs } = await start({ needsApproval: true });
    model.respondWith({ output: [call('a')] }, 'Understood.', { output: [call('a')] }, 'Ok.');
    session.sendMessage('Look a up.');
    await flushMicrotasks();
    expect(log.of('tool_approval_requested')).toHaveLength(1);
    session.reject('call_A');
    await flushMicrotasks();
    session.sendMessage('Please?');
    await flushMicrotasks();
    expect(log.of('tool_approval_requested')).toHaveLength(1);
    expect(session.pendingApprovals).toEqual([]);
    expect(runs).toEqual([]);
    expect(outputs()).toHaveLength(1);
    await session.close();
  });

  test('a call delivered again after a reconnect does not run again', async () => {
    const clock = new ManualClock();
    const { model, session, log, runs } = await start({ clock });
    model.respondWith({ output: [call('a')] }, 'Done.');
    session.sendMessage('Look a up.');
    await flushMicrotasks();
    await clock.advance(5_000);
    expect(runs).toEqual(['a']);
    model.connection.disconnect('network');
    await flushMicrotasks();
    await clock.advance(1_000);
    await flushMicrotasks();
    expect(log.of('reconnected')).toHaveLength(1);
    model.respondWith({ output: [call('a')] }, 'Done again.');
    session.sendMessage('Again.');
    await flushMicrotasks();
    expect(runs).toEqual(['a']);
    expect(log.of('tool_started')).toHaveLength(1);
    await session.close();
  });

  test('a call whose output was refused, delivered again, gets that output from the cache: the tool does not run again', async () => {
    const { model, session, log, runs, outputs } = await start();
    model.respondWith(
      { output: [call('a')] },
      'I could not send that.',
      { output: [call('a')] },
      'The value of a is here.',
    );
    model.connection.failNextSend('sendToolOutput');
    session.sendMessage('Look a up.');
    await flushMicrotasks();
    expect(runs).toEqual(['a']);
    expect(log.of('error').map((e) => e.code)).toEqual(['tool_output_not_sent']);
    expect(log.of('tool_done')).toEqual([]);

    session.sendMessage('Try again.');
    await flushMicrotasks();
    expect(runs).toEqual(['a']);
    expect(log.of('tool_started')).toHaveLength(1);
    // The output the connection refused, sent from the cache.
    expect(outputs()).toEqual([{ type: 'sendToolOutput', callId: 'call_A', output: 'value of a' }]);
    expect(log.of('warning').map((w) => w.code)).toEqual(['tool_output_resent']);
    expect(log.of('tool_done')).toMatchObject([
      { callId: 'call_A', output: 'value of a', status: 'completed' },
    ]);
    // Answered: the follow-up after the resent output says it.
    const last = log.of('response_done').at(-1)?.responseId;
    const said = log.of('transcript_delta').filter((d) => d.responseId === last);
    expect(said.map((d) => d.delta).join('')).toBe('The value of a is here.');
    // Once sent, a further delivery is an ordinary repeat.
    model.respondWith({ output: [call('a')] }, 'Still here.');
    session.sendMessage('Once more.');
    await flushMicrotasks();
    expect(outputs()).toHaveLength(1);
    expect(log.of('warning').map((w) => w.code)).toEqual(['tool_output_resent', 'tool_call_repeated']);
    await session.close();
  });

  test('a call on a response the session never saw created still runs once', async () => {
    const { model, session, runs, outputs } = await start();
    model.connection.emit({
      type: 'function_call',
      responseId: 'resp_unseen',
      itemId: 'item_x',
      callId: 'call_X',
      name: 'lookup',
      arguments: '{"key":"x"}',
    });
    model.connection.emit({
      type: 'function_call',
      responseId: 'resp_unseen_2',
      itemId: 'item_y',
      callId: 'call_X',
      name: 'lookup',
      arguments: '{"key":"x"}',
    });
    await flushMicrotasks();
    expect(runs).toEqual(['x']);
    expect(outputs()).toHaveLength(1);
    await session.close();
  });
});
