import {
  AbortError,
  Agent,
  delay,
  Runner,
  ToolGuardrailTripwireTriggered,
  type ToolInputGuardrail,
  type ToolOutputGuardrail,
  ToolTimeoutError,
  tool,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { bothWays } from './both-ways.js';
import { adder, orderLookup } from './fixtures.js';

function lastOutput(input: readonly { type: string }[] | undefined) {
  return input?.filter((item) => item.type === 'function_call_output').at(-1);
}

describe('tools in the run loop', () => {
  test('invalid arguments are not executed; the model sees an error output and the run goes on', async () => {
    await bothWays(async (h) => {
      const { add, calls } = adder();
      const model = h.model([
        MockModel.toolCall('add', { a: 'two', b: 3 }),
        MockModel.toolCall('add', 'not json'),
        MockModel.toolCall('add', { a: 2, b: 3 }),
        MockModel.text('5'),
      ]);
      const result = await h.run(new Agent({ name: 'Calc', tools: [add], model }), 'add');
      expect(result.finalOutput).toBe('5');
      expect(calls).toEqual([{ a: 2, b: 3 }]);
      expect(lastOutput(model.requests[1]?.input)).toEqual({
        type: 'function_call_output',
        callId: 'call_1',
        output: expect.stringMatching(/^Invalid arguments for tool "add": a: .*Call it again/),
      });
      expect(lastOutput(model.requests[2]?.input)).toMatchObject({
        callId: 'call_2',
        output: expect.stringContaining('not valid JSON'),
      });
    });
  });

  test('a call to a tool the agent does not have gets an error output naming the available tools', async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const model = h.model([MockModel.toolCall('multiply', { a: 2, b: 3 }), MockModel.text('sorry')]);
      const result = await h.run(new Agent({ name: 'Calc', tools: [add], model }), 'multiply');
      expect(result.finalOutput).toBe('sorry');
      expect(result.newItems[0]).toMatchObject({ type: 'tool_call_item', rawItem: { name: 'multiply' } });
      expect(lastOutput(model.requests[1]?.input)).toEqual({
        type: 'function_call_output',
        callId: 'call_1',
        output: 'Tool "multiply" does not exist. Available tools: add. Call one of those instead.',
      });
    });
  });

  test('a throwing tool becomes an error output: generic by default, its errorFunction decides otherwise', async () => {
    await bothWays(async (h) => {
      const flaky = tool({
        name: 'flaky',
        description: 'fails',
        parameters: z.object({}),
        execute: () => {
          throw new Error('disk full');
        },
      });
      const custom = tool({
        name: 'custom',
        description: 'fails politely',
        parameters: z.object({}),
        execute: () => {
          throw new Error('nope');
        },
        errorFunction: (_ctx, error) => `custom: ${(error as Error).message}`,
      });
      const model = h.model([
        MockModel.turn(MockModel.toolCall('flaky'), MockModel.toolCall('custom')),
        MockModel.text('both failed'),
      ]);
      const result = await h.run(new Agent({ name: 'A', tools: [flaky, custom], model }), 'go');
      expect(result.finalOutput).toBe('both failed');
      const outputs = model.requests[1]?.input.filter((item) => item.type === 'function_call_output');
      expect(outputs).toEqual([
        {
          type: 'function_call_output',
          callId: 'call_1',
          output: 'An error occurred while running the tool. Please try again.',
        },
        { type: 'function_call_output', callId: 'call_2', output: 'custom: nope' },
      ]);
    });
  });

  test('tool guardrails: reject_content replaces the output, throw_exception fails the run', async () => {
    await bothWays(async (h) => {
      const { lookup, calls } = orderLookup();
      const noSecrets: ToolInputGuardrail = {
        name: 'no_secret_orders',
        execute: ({ input }) =>
          (input as { orderId: string }).orderId.startsWith('secret')
            ? { type: 'reject_content', message: 'That order is confidential.' }
            : { type: 'allow' },
      };
      const redact: ToolOutputGuardrail = {
        name: 'redact',
        execute: ({ output }) =>
          JSON.stringify(output).includes('shipped')
            ? { type: 'reject_content', message: '[redacted]' }
            : { type: 'allow' },
      };
      const guarded = tool({
        name: 'lookup_order',
        description: lookup.description,
        parameters: lookup.parameters,
        execute: lookup.execute,
        inputGuardrails: [noSecrets],
        outputGuardrails: [redact],
      });
      const model = h.model([
        MockModel.turn(
          MockModel.toolCall('lookup_order', { orderId: 'secret-1' }),
          MockModel.toolCall('lookup_order', { orderId: 'A1' }),
        ),
        MockModel.text('ok'),
      ]);
      const result = await h.run(new Agent({ name: 'Support', tools: [guarded], model }), 'orders');
      expect(calls).toEqual(['A1']);
      expect(model.requests[1]?.input.filter((item) => item.type === 'function_call_output')).toEqual([
        { type: 'function_call_output', callId: 'call_1', output: 'That order is confidential.' },
        { type: 'function_call_output', callId: 'call_2', output: '[redacted]' },
      ]);
      expect(result.finalOutput).toBe('ok');

      const stopper = tool({
        name: 'stop',
        description: 'always stopped',
        parameters: z.object({}),
        execute: () => 'never',
        inputGuardrails: [
          { name: 'halt', execute: () => ({ type: 'throw_exception', outputInfo: { why: 'policy' } }) },
        ],
      });
      const model2 = h.model([MockModel.toolCall('stop'), MockModel.text('unreached')]);
      const error = await h
        .run(new Agent({ name: 'B', tools: [stopper], model: model2 }), 'x')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolGuardrailTripwireTriggered);
      expect(error).toMatchObject({
        code: 'tool_guardrail_tripwire',
        guardrailName: 'halt',
        outputInfo: { why: 'policy' },
      });
      expect(model2.callCount).toBe(1);
    });
  });

  test('a tool that fails the run aborts its parallel siblings with its error, awaits them, and the run fails with it (not aborted)', async () => {
    await bothWays(async (h) => {
      const clock = new ManualClock();
      const log: string[] = [];
      const tripwire = new Error('unused');
      const stopper = tool({
        name: 'stop',
        description: 'always stopped',
        parameters: z.object({}),
        execute: () => 'never',
        inputGuardrails: [
          {
            name: 'halt',
            execute: async () => {
              await delay(clock, 1_000);
              return { type: 'throw_exception', outputInfo: tripwire };
            },
          },
        ],
      });
      const slow = tool({
        name: 'slow',
        description: 'takes a minute',
        parameters: z.object({}),
        execute: async (_input, { signal }) => {
          try {
            await delay(clock, 60_000, signal);
            return 'finished';
          } finally {
            await new Promise<void>((resolve) => setImmediate(resolve));
            log.push(`slow finally: ${(signal.reason as Error)?.constructor.name}`);
          }
        },
      });
      const model = h.model([
        MockModel.turn(MockModel.toolCall('stop'), MockModel.toolCall('slow')),
        MockModel.text('unreached'),
      ]);
      let logAtSettle: string[] = [];
      const outcome = h
        .run(new Agent({ name: 'A', tools: [stopper, slow], model }), 'go', {}, new Runner({ clock }))
        .catch((e: unknown) => {
          logAtSettle = [...log];
          return e;
        });
      await flushMicrotasks();
      await clock.advance(1_000);
      const error = await outcome;
      expect(error).toBeInstanceOf(ToolGuardrailTripwireTriggered);
      expect(error).toMatchObject({ guardrailName: 'halt', outputInfo: tripwire });
      expect(logAtSettle).toEqual(['slow finally: ToolGuardrailTripwireTriggered']);
      expect(model.callCount).toBe(1);
      expect(clock.pendingTimers).toBe(0);
    });
  });

  describe('tool timeout (ManualClock, no sleeping)', () => {
    function slowTool(clock: ManualClock, timeoutBehavior: 'error_as_result' | 'raise_exception') {
      const log: string[] = [];
      const slow = tool({
        name: 'slow',
        description: 'takes a minute',
        parameters: z.object({}),
        timeoutMs: 1_000,
        timeoutBehavior,
        execute: async (_input, { signal }) => {
          log.push('start');
          try {
            await delay(clock, 60_000, signal);
            return 'finished';
          } finally {
            log.push('finally');
          }
        },
      });
      return { slow, log };
    }

    test('error_as_result: the model sees the timeout and the run goes on', async () => {
      await bothWays(async (h) => {
        const clock = new ManualClock();
        const { slow, log } = slowTool(clock, 'error_as_result');
        const model = h.model([MockModel.toolCall('slow'), MockModel.text('it timed out')]);
        const pending = h.run(
          new Agent({ name: 'A', tools: [slow], model }),
          'go',
          {},
          new Runner({ clock }),
        );
        await flushMicrotasks();
        expect(log).toEqual(['start']);
        await clock.advance(999);
        expect(model.callCount).toBe(1);
        await clock.advance(1);
        const result = await pending;
        expect(result.finalOutput).toBe('it timed out');
        expect(log).toEqual(['start', 'finally']);
        expect(lastOutput(model.requests[1]?.input)).toMatchObject({
          output: expect.stringContaining('did not finish within 1000 ms'),
        });
        expect(clock.pendingTimers).toBe(0);
      });
    });

    test('raise_exception: the run fails with ToolTimeoutError', async () => {
      await bothWays(async (h) => {
        const clock = new ManualClock();
        const { slow, log } = slowTool(clock, 'raise_exception');
        const model = h.model([MockModel.toolCall('slow'), MockModel.text('unreached')]);
        const pending = h.run(
          new Agent({ name: 'A', tools: [slow], model }),
          'go',
          {},
          new Runner({ clock }),
        );
        const outcome = pending.catch((e: unknown) => e);
        await flushMicrotasks();
        await clock.advance(1_000);
        const error = await outcome;
        expect(error).toBeInstanceOf(ToolTimeoutError);
        expect(error).toMatchObject({ code: 'tool_timeout', toolName: 'slow', timeoutMs: 1_000 });
        expect(model.callCount).toBe(1);
        await flushMicrotasks();
        expect(log).toEqual(['start', 'finally']);
        expect(clock.pendingTimers).toBe(0);
      });
    });

    test('an aborted run waits for a timed tool that ignores its signal, even when the timeout fires meanwhile', async () => {
      await bothWays(async (h) => {
        const clock = new ManualClock();
        const controller = new AbortController();
        const log: string[] = [];
        let release = () => {};
        const stubborn = tool({
          name: 'stubborn',
          description: 'finishes only when released',
          parameters: z.object({}),
          timeoutMs: 1_000,
          execute: async (_input, { signal }) => {
            log.push('start');
            await new Promise<void>((resolve) => {
              release = resolve;
            });
            log.push(`finally (signal aborted: ${signal.aborted})`);
            return 'late';
          },
        });
        const model = h.model([MockModel.toolCall('stubborn'), MockModel.text('unreached')]);
        let settled = false;
        const outcome = h
          .run(
            new Agent({ name: 'A', tools: [stubborn], model }),
            'go',
            { signal: controller.signal },
            new Runner({ clock }),
          )
          .catch((e: unknown) => e)
          .finally(() => {
            settled = true;
          });
        await flushMicrotasks();
        expect(log).toEqual(['start']);
        controller.abort(new Error('user left'));
        await flushMicrotasks();
        await clock.advance(1_000);
        await flushMicrotasks();
        expect(settled).toBe(false);
        release();
        const error = await outcome;
        expect(error).toBeInstanceOf(AbortError);
        expect(log).toEqual(['start', 'finally (signal aborted: true)']);
        expect(model.callCount).toBe(1);
        expect(clock.pendingTimers).toBe(0);
      });
    });
  });
});
