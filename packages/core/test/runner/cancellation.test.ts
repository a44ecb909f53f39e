import { AbortError, Agent, delay, MemorySession, type OutputGuardrail, Runner, tool } from '@parley/core';
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
      // A cancelled run saves nothing and cannot be resumed.
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
