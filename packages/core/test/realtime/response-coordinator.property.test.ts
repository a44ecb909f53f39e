import type { CreateResponseCommand } from '@parley/core';
import { ResponseCoordinator } from '@parley/core/internal';
import fc from 'fast-check';
import { expect, test } from 'vitest';

/**
 * A tiny provider model: it starts a requested default response when nothing is active and refuses
 * one otherwise, exactly like a real provider. Any refusal or overlap fails the property.
 */
function run(callCount: number, order: number[], endPosition: number, withIds: boolean) {
  const sent: CreateResponseCommand[] = [];
  let active: string | undefined = 'resp_1';
  let maxActive = 1;
  let refusals = 0;
  let seq = 0;
  const pendingStarts: CreateResponseCommand[] = [];
  const coordinator = new ResponseCoordinator({
    autoToolResponseGeneration: false,
    createRequestId: () => `req_${++seq}`,
    send: (command) => {
      sent.push(command);
      pendingStarts.push(command);
    },
    failed: () => {},
  });
  coordinator.responseStarted({ responseId: 'resp_1', ephemeral: false });
  const calls = Array.from({ length: callCount }, (_, i) => `call_${i}`);
  for (const call of calls) coordinator.toolCallStarted(call, withIds ? 'resp_1' : undefined);
  const deliverStarts = () => {
    while (pendingStarts.length > 0) {
      const command = pendingStarts.shift()!;
      if (active !== undefined) {
        refusals++;
        coordinator.requestRefused(command.clientRequestId);
        continue;
      }
      active = `resp_${command.clientRequestId}`;
      coordinator.responseStarted({
        responseId: active,
        clientRequestId: command.clientRequestId,
        ephemeral: false,
      });
    }
  };
  const steps = order.map((i) => calls[i]!);
  steps.splice(endPosition, 0, 'END');
  for (const step of steps) {
    if (step === 'END') {
      coordinator.responseDone({ responseId: 'resp_1', status: 'completed', ephemeral: false });
      active = undefined;
    } else {
      coordinator.toolCallFinished(step);
    }
    deliverStarts();
    maxActive = Math.max(maxActive, active === undefined ? 0 : 1);
  }
  return { sent, refusals, maxActive };
}

test('any order of tool completions and response end → exactly one new response, never two active', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 6 }).chain((n) =>
        fc.record({
          n: fc.constant(n),
          order: fc.shuffledSubarray(
            Array.from({ length: n }, (_, i) => i),
            { minLength: n, maxLength: n },
          ),
          end: fc.integer({ min: 0, max: n }),
        }),
      ),
      ({ n, order, end }) => {
        const result = run(n, order, end, true);
        expect(result.sent).toHaveLength(1);
        expect(result.refusals).toBe(0);
        expect(result.maxActive).toBeLessThanOrEqual(1);
      },
    ),
    { numRuns: 500 },
  );
});

test('without response ids: one follow-up per output, and still never two active', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 5 }).chain((n) =>
        fc.record({
          n: fc.constant(n),
          order: fc.shuffledSubarray(
            Array.from({ length: n }, (_, i) => i),
            { minLength: n, maxLength: n },
          ),
          end: fc.integer({ min: 0, max: n }),
        }),
      ),
      ({ n, order, end }) => {
        const result = run(n, order, end, false);
        expect(result.refusals).toBe(0);
        // Follow-ups queued behind the active response coalesce; never more than one per output.
        expect(result.sent.length).toBeGreaterThanOrEqual(1);
        expect(result.sent.length).toBeLessThanOrEqual(n);
      },
    ),
    { numRuns: 300 },
  );
});
