import { deferred, EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession, tool } from '@parley/core';
import { flushMicrotasks, MockRealtimeModel, type MockResponseStep } from '@parley/mock';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

/** An agent whose `step` tool finishes only when the test releases gate `i`. */
function gatedAgent(count: number) {
  const gates = Array.from({ length: count }, () => deferred<string>());
  const step = tool({
    name: 'step',
    description: 'One step of several',
    parameters: z.object({ i: z.number() }),
    execute: ({ i }) => gates[i]!.promise,
  });
  return { agent: new Agent({ name: 'Worker', tools: [step] }), gates };
}

const calls = (count: number, extra: Partial<Extract<MockResponseStep, { type: 'function_call' }>> = {}) =>
  Array.from(
    { length: count },
    (_, i): MockResponseStep => ({
      type: 'function_call',
      name: 'step',
      arguments: { i },
      callId: `call_${i}`,
      ...extra,
    }),
  );

async function start(
  count: number,
  options: { auto?: boolean; holdOpen?: boolean; withoutResponseId?: boolean } = {},
) {
  const { agent, gates } = gatedAgent(count);
  const model = new MockRealtimeModel({
    capabilities: { autoToolResponseGeneration: options.auto ?? false },
  });
  const session = new RealtimeSession(agent, { model });
  const log = new EventRecorder(session);
  const output: MockResponseStep[] = [
    ...calls(count, options.withoutResponseId ? { withoutResponseId: true } : {}),
  ];
  if (options.holdOpen) output.push({ type: 'pause' });
  model.respondWith({ output }, 'All done.');
  await session.connect();
  const first = await session.generateResponse();
  await flushMicrotasks();
  const creates = () => model.commands.filter((c) => c.type === 'createResponse').length - 1;
  const toolOutputs = () => model.commands.filter((c) => c.type === 'sendToolOutput').length;
  return { model, session, log, gates, first, creates, toolOutputs };
}

describe('parallel tool calls in one response', () => {
  test('outputs go out while siblings run; the last call to finish starts exactly one response', async () => {
    const { session, log, gates, creates, toolOutputs } = await start(3);
    expect(log.of('response_done')).toHaveLength(1);
    gates[2]!.resolve('two');
    await flushMicrotasks();
    gates[0]!.resolve('zero');
    await flushMicrotasks();
    expect(toolOutputs()).toBe(2);
    expect(creates()).toBe(0);
    gates[1]!.resolve('one');
    await flushMicrotasks();
    expect(toolOutputs()).toBe(3);
    expect(creates()).toBe(1);
    expect(log.of('response_started')).toHaveLength(2);
    expect(log.of('error')).toEqual([]);
    expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'All done.' });
    await session.close();
  });

  test('calls that all finish before the response ends: the end starts exactly one response', async () => {
    const { model, session, log, gates, creates, toolOutputs } = await start(3, { holdOpen: true });
    for (const gate of gates) gate.resolve('ok');
    await flushMicrotasks();
    expect(toolOutputs()).toBe(3);
    expect(creates()).toBe(0);
    model.connection.resume();
    await flushMicrotasks();
    expect(creates()).toBe(1);
    expect(log.of('response_started')).toHaveLength(2);
    expect(log.of('error')).toEqual([]);
    await session.close();
  });

  test('calls without a responseId: a response after each output', async () => {
    const { model, session, log, gates, creates } = await start(2, { withoutResponseId: true });
    model.respondWith('Second follow-up.');
    gates[0]!.resolve('a');
    await flushMicrotasks();
    expect(creates()).toBe(1);
    gates[1]!.resolve('b');
    await flushMicrotasks();
    expect(creates()).toBe(2);
    expect(log.of('error')).toEqual([]);
    await session.close();
  });

  test('with autoToolResponseGeneration the session requests nothing; the provider answers exactly once', async () => {
    const { session, log, gates, creates, toolOutputs } = await start(3, { auto: true });
    gates[1]!.resolve('1');
    gates[0]!.resolve('0');
    await flushMicrotasks();
    gates[2]!.resolve('2');
    await flushMicrotasks();
    expect(toolOutputs()).toBe(3);
    expect(creates()).toBe(0);
    expect(log.of('response_started')).toHaveLength(2);
    expect(log.of('error')).toEqual([]);
    await session.close();
  });
});

test('property: any order of tool completions and response end → exactly one new response, never two active', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }).chain((n) =>
        fc.record({
          n: fc.constant(n),
          order: fc.shuffledSubarray(
            Array.from({ length: n }, (_, i) => i),
            { minLength: n, maxLength: n },
          ),
          end: fc.integer({ min: 0, max: n }),
          auto: fc.boolean(),
        }),
      ),
      async ({ n, order, end, auto }) => {
        const { model, session, log, gates, creates } = await start(n, { auto, holdOpen: true });
        const steps: (number | 'end')[] = [...order];
        steps.splice(end, 0, 'end');
        for (const step of steps) {
          if (step === 'end') model.connection.resume();
          else gates[step]!.resolve(`out ${step}`);
          await flushMicrotasks();
        }
        expect(creates()).toBe(auto ? 0 : 1);
        expect(log.of('response_started')).toHaveLength(2);
        expect(log.of('error')).toEqual([]);
        expect(session.history.at(-1)).toMatchObject({ text: 'All done.' });
        await session.close();
      },
    ),
    { numRuns: 60 },
  );
}, 30_000);
