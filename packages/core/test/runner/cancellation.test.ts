import {
  AbortError,
  Agent,
  delay,
  handoff,
  MemorySession,
  type OutputGuardrail,
  Runner,
  tool,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { bothWays } from './both-ways.js';

describe('aborting the signal', () => {
  test('during the model call: the call is aborted and the run rejects with AbortError', async () => {
    await bothWays(async (h) => {
      const clock = new ManualClock();
      const controller = new AbortController();
      const model = h.model([MockModel.delay(10_000, MockModel.text('never'))], { clock });
      const outcome = h
        .run(new Agent({ name: 'A', model }), 'hi', { signal: controller.signal })
        .catch((e: unknown) => e);
      await flushMicrotasks();
      expect(model.calls[0]?.status).toBe('pending');
      controller.abort();
      const error = await outcome;
      expect(error).toBeInstanceOf(AbortError);
      expect(error).toMatchObject({ code: 'aborted' });
      expect(model.abortedCalls).toBe(1);
      expect(clock.pendingTimers).toBe(0);
    });
  });

  test('mid-turn with tools running: every tool is cancelled and awaited before the run settles', async () => {
    await bothWays(async (h) => {
      const clock = new ManualClock();
      const controller = new AbortController();
      const log: string[] = [];
      const session = new MemorySession();
      const slow = (name: string, ms: number) =>
        tool({
          name,
          description: name,
          parameters: z.object({}),
          execute: async (_input, { signal }) => {
            log.push(`${name} start`);
            try {
              await delay(clock, ms, signal);
              return 'done';
            } finally {
              // Cleanup that takes a macrotask must still finish before the run settles.
              await new Promise<void>((resolve) => setImmediate(resolve));
              log.push(`${name} finally`);
            }
          },
        });
      const model = h.model([
        MockModel.turn(MockModel.toolCall('slow_a'), MockModel.toolCall('slow_b')),
        MockModel.text('x'),
      ]);
      const agent = new Agent({ name: 'A', tools: [slow('slow_a', 5_000), slow('slow_b', 9_000)], model });
      let logAtSettle: string[] = [];
      const outcome = h
        .run(agent, 'go', { signal: controller.signal, session }, new Runner({ clock }))
        .catch((e: unknown) => {
          logAtSettle = [...log];
          return e;
        });
      await flushMicrotasks();
      expect(log).toEqual(['slow_a start', 'slow_b start']);
      await clock.advance(1_000);
      controller.abort(new Error('user left'));
      const error = await outcome;
      expect(error).toBeInstanceOf(AbortError);
      expect((error as AbortError).cause).toEqual(new Error('user left'));
      expect(logAtSettle).toEqual(['slow_a start', 'slow_b start', 'slow_a finally', 'slow_b finally']);
      expect(clock.pendingTimers).toBe(0);
      expect(model.callCount).toBe(1);
      // No tool completed: the cancelled run saves nothing (and cannot be resumed).
      expect(await session.getItems()).toEqual([]);
    });
  });

  test('during output guardrails: the guardrail is cancelled and awaited', async () => {
    await bothWays(async (h) => {
      const clock = new ManualClock();
      const controller = new AbortController();
      const log: string[] = [];
      const slowCheck: OutputGuardrail = {
        name: 'slow_check',
        execute: async ({ signal }) => {
          try {
            await delay(clock, 1_000, signal);
            return { tripwireTriggered: false };
          } finally {
            await new Promise<void>((resolve) => setImmediate(resolve));
            log.push(`finally aborted=${signal.aborted}`);
          }
        },
      };
      const agent = new Agent({
        name: 'A',
        outputGuardrails: [slowCheck],
        model: h.model([MockModel.text('hi')]),
      });
      let logAtSettle: string[] = [];
      const outcome = h.run(agent, 'x', { signal: controller.signal }).catch((e: unknown) => {
        logAtSettle = [...log];
        return e;
      });
      await flushMicrotasks();
      controller.abort();
      expect(await outcome).toBeInstanceOf(AbortError);
      expect(logAtSettle).toEqual(['finally aborted=true']);
      expect(clock.pendingTimers).toBe(0);
    });
  });

  test('an already aborted signal never calls the model', async () => {
    await bothWays(async (h) => {
      const model = h.model([MockModel.text('never')]);
      const error = await h
        .run(new Agent({ name: 'A', model }), 'hi', { signal: AbortSignal.abort() })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AbortError);
      expect(model.callCount).toBe(0);
    });
  });
});

describe('app callbacks that can wait get the run signal and cannot hold a cancelled run', () => {
  const forever = () => new Promise<never>(() => {});

  test('needsApproval gets call.signal; aborting the run aborts it and the run settles without waiting for it', async () => {
    await bothWays(async (h) => {
      const controller = new AbortController();
      const signals: AbortSignal[] = [];
      const pay = tool({
        name: 'pay',
        description: 'Pays',
        parameters: z.object({}),
        needsApproval: (_context, _input, call) => {
          signals.push(call.signal);
          return forever();
        },
        execute: () => 'paid',
      });
      const model = h.model([MockModel.toolCall('pay'), MockModel.text('x')]);
      const outcome = h
        .run(new Agent({ name: 'A', tools: [pay], model }), 'pay', { signal: controller.signal })
        .catch((e: unknown) => e);
      await flushMicrotasks();
      expect(signals.map((s) => s.aborted)).toEqual([false]);
      controller.abort();
      expect(await outcome).toBeInstanceOf(AbortError);
      expect(signals[0]?.aborted).toBe(true);
    });
  });

  test('onHandoff gets info.signal; aborting the run aborts it and the run settles without waiting for it', async () => {
    await bothWays(async (h) => {
      const controller = new AbortController();
      const signals: AbortSignal[] = [];
      const billing = new Agent({ name: 'Billing', model: h.model([MockModel.text('never')]) });
      const model = h.model([MockModel.toolCall('transfer_to_billing')]);
      const triage = new Agent({
        name: 'Triage',
        model,
        handoffs: [
          handoff(billing, {
            onHandoff: (_context, { signal }) => {
              signals.push(signal);
              return forever();
            },
          }),
        ],
      });
      const outcome = h.run(triage, 'billing', { signal: controller.signal }).catch((e: unknown) => e);
      await flushMicrotasks();
      expect(signals.map((s) => s.aborted)).toEqual([false]);
      controller.abort();
      expect(await outcome).toBeInstanceOf(AbortError);
      expect(signals[0]?.aborted).toBe(true);
    });
  });

  test('tool guardrails get the call signal; aborting the run aborts it and the run settles without waiting for it', async () => {
    await bothWays(async (h) => {
      const controller = new AbortController();
      const signals: AbortSignal[] = [];
      const guarded = tool({
        name: 'guarded',
        description: 'Guarded',
        parameters: z.object({}),
        inputGuardrails: [
          {
            name: 'slow_check',
            execute: ({ signal }) => {
              signals.push(signal);
              return forever();
            },
          },
        ],
        execute: () => 'ran',
      });
      const model = h.model([MockModel.toolCall('guarded'), MockModel.text('x')]);
      const outcome = h
        .run(new Agent({ name: 'A', tools: [guarded], model }), 'go', { signal: controller.signal })
        .catch((e: unknown) => e);
      await flushMicrotasks();
      expect(signals.map((s) => s.aborted)).toEqual([false]);
      controller.abort();
      expect(await outcome).toBeInstanceOf(AbortError);
      expect(signals[0]?.aborted).toBe(true);
    });
  });
});
