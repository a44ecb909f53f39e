import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession, ToolCallCancelledError, tool } from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

/** A tool that runs until released or aborted; `signals` receives each run's signal. */
function slowTool(options: { needsApproval?: boolean } = {}) {
  const signals: AbortSignal[] = [];
  const finished: string[] = [];
  let release: (() => void) | undefined;
  const slow = tool({
    name: 'slow',
    description: 'Takes its time',
    parameters: z.object({ key: z.string() }),
    needsApproval: options.needsApproval ?? false,
    execute: async ({ key }, { signal }) => {
      signals.push(signal);
      await new Promise<void>((resolve, reject) => {
        release = resolve;
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
      finished.push(key);
      return `done ${key}`;
    },
  });
  const quick = tool({
    name: 'quick',
    description: 'Answers at once',
    parameters: z.object({}),
    execute: () => 'quick answer',
  });
  return {
    agent: new Agent({ name: 'Worker', tools: [slow, quick] }),
    signals,
    finished,
    release: () => release?.(),
  };
}

const slowCall = (callId: string) =>
  ({ type: 'function_call', name: 'slow', arguments: { key: callId }, callId }) as const;

async function start(options: { needsApproval?: boolean } = {}) {
  const clock = new ManualClock();
  const rig = slowTool(options);
  const model = new MockRealtimeModel({
    capabilities: { autoToolResponseGeneration: false, toolCallCancellation: true },
    clock,
  });
  const session = new RealtimeSession(rig.agent, { model, clock, reconnect: { jitter: 0 } });
  const log = new EventRecorder(session);
  await session.connect();
  const sent = (type: string) => model.connections.flatMap((c) => c.commands).filter((c) => c.type === type);
  return { ...rig, clock, model, session, log, sent };
}

describe('a tool call the provider cancels', () => {
  test('stops the tool, sends no output and no follow-up, and tells the app with tool_done cancelled', async () => {
    const { model, session, log, signals, finished, sent } = await start();
    model.respondWith({ output: [slowCall('call_1')] });
    session.sendMessage('Do the slow thing.');
    await log.waitFor('tool_started');
    await log.waitFor('response_done');
    expect(signals[0]?.aborted).toBe(false);

    model.connection.cancelToolCalls('call_1');
    const done = await log.waitFor('tool_done');
    expect(done).toMatchObject({ callId: 'call_1', name: 'slow', status: 'cancelled', output: '' });
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toBeInstanceOf(ToolCallCancelledError);
    await flushMicrotasks();
    expect(finished).toEqual([]);
    expect(sent('sendToolOutput')).toEqual([]);
    // The user's message asked for one response; the cancelled call asks for none.
    expect(sent('createResponse')).toHaveLength(1);
    expect(session.history.find((item) => item.type === 'function_call')).toMatchObject({
      callId: 'call_1',
      status: 'cancelled',
    });
    expect(session.history.find((item) => item.type === 'function_call')).not.toHaveProperty('output');
    expect(log.of('error')).toEqual([]);
    await session.close();
    model.assertComplete();
  });

  test('without a cancel the same tool runs to its output and its follow-up (the rule the cancel changes)', async () => {
    const { model, session, log, finished, sent, release } = await start();
    model.respondWith({ output: [slowCall('call_1')] }, 'All done.');
    session.sendMessage('Do the slow thing.');
    await log.waitFor('tool_started');
    release();
    expect(await log.waitFor('tool_done')).toMatchObject({ status: 'completed', output: 'done call_1' });
    await log.waitFor('response_done', undefined, 2);
    expect(finished).toEqual(['call_1']);
    expect(sent('sendToolOutput')).toHaveLength(1);
    expect(sent('createResponse')).toHaveLength(2);
    await session.close();
  });

  test('a call waiting for approval is dropped from the approvals and ends cancelled', async () => {
    const { model, session, log, signals, sent } = await start({ needsApproval: true });
    model.respondWith({ output: [slowCall('call_1')] });
    session.sendMessage('Do the slow thing.');
    await log.waitFor('tool_approval_requested');
    model.connection.cancelToolCalls('call_1');
    expect(await log.waitFor('tool_done')).toMatchObject({ callId: 'call_1', status: 'cancelled' });
    expect(session.pendingApprovals).toEqual([]);
    expect(() => session.approve('call_1')).toThrow();
    expect(signals).toEqual([]);
    expect(log.of('tool_started')).toEqual([]);
    expect(sent('sendToolOutput')).toEqual([]);
    await session.close();
  });

  test('a cancel after the output went out changes nothing but a warning', async () => {
    const { model, session, log, sent } = await start();
    model.respondWith(
      { output: [{ type: 'function_call', name: 'quick', arguments: {}, callId: 'call_q' }] },
      'Quick.',
    );
    session.sendMessage('Quick one.');
    await log.waitFor('tool_done');
    model.connection.cancelToolCalls('call_q');
    const warning = await log.waitFor('warning', (w) => w.code === 'tool_call_cancel_ignored');
    expect(warning.message).toContain('call_q');
    expect(log.of('tool_done')).toHaveLength(1);
    expect(sent('sendToolOutput')).toHaveLength(1);
    expect(session.history.find((item) => item.type === 'function_call')).toMatchObject({
      status: 'completed',
      output: 'quick answer',
    });
    await session.close();
  });

  test('a cancel that arrives before its call keeps the call from ever running', async () => {
    const { model, session, log, signals, sent } = await start();
    model.connection.cancelToolCalls('call_early');
    model.respondWith({ output: [slowCall('call_early')] });
    session.sendMessage('Go.');
    const warning = await log.waitFor('warning', (w) => w.code === 'tool_call_cancelled_before');
    expect(warning.message).toContain('call_early');
    await log.waitFor('response_done');
    expect(signals).toEqual([]);
    expect(log.of('tool_started')).toEqual([]);
    expect(sent('sendToolOutput')).toEqual([]);
    await session.close();
  });

  test('twice is once; the cancelled call neither runs again when re-delivered nor returns in a replay', async () => {
    const { model, session, log, signals, sent } = await start();
    model.respondWith({ output: [slowCall('call_1')] }, { output: [slowCall('call_1')] });
    session.sendMessage('Do the slow thing.');
    await log.waitFor('tool_started');
    model.connection.cancelToolCalls('call_1', 'call_1');
    await log.waitFor('tool_done');
    await flushMicrotasks();
    expect(log.of('tool_done')).toHaveLength(1);
    // The same call again: the ledger knows it, it does not run.
    session.sendMessage('Again?');
    await log.waitFor('warning', (w) => w.code === 'tool_call_repeated');
    expect(signals).toHaveLength(1);
    // A new connection is re-created from the history without the withdrawn call.
    model.respondWith('Back.');
    model.connection.disconnect();
    await log.waitFor('reconnected');
    const replayed = model.connection.commands.filter((c) => c.type === 'createItem');
    expect(replayed.some((c) => c.type === 'createItem' && c.item.type === 'function_call')).toBe(false);
    expect(sent('sendToolOutput')).toEqual([]);
    await session.close();
  });

  test('of two parallel calls, the cancelled one does not hold or double the follow-up of the other', async () => {
    const { model, session, log, sent } = await start();
    model.respondWith(
      {
        output: [
          slowCall('call_1'),
          { type: 'function_call', name: 'quick', arguments: {}, callId: 'call_q' },
        ],
      },
      'One answer.',
    );
    session.sendMessage('Both.');
    await log.waitFor('tool_done', (e) => e.callId === 'call_q');
    await log.waitFor('response_done');
    // The follow-up waits for the slow call...
    expect(sent('createResponse')).toHaveLength(1);
    model.connection.cancelToolCalls('call_1');
    // ...and goes out once it is cancelled, answering the quick call.
    await log.waitFor('response_done', undefined, 2);
    expect(sent('createResponse')).toHaveLength(2);
    expect(sent('sendToolOutput')).toHaveLength(1);
    await session.close();
    model.assertComplete();
  });
});
