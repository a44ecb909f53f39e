import {
  Agent,
  ConnectionCloseError,
  type RealtimeConnection,
  type RealtimeModel,
  RealtimeSession,
  type RealtimeSessionEvent,
  ResponseTimeoutError,
  StaleResponseError,
  tool,
} from '@parley/core';
import { expect } from 'vitest';
import { z } from 'zod';
import type { SteppedClock } from '../harness.js';
import type { ConformanceScenario } from '../scenario.js';
import { deferred, EventRecorder, settlesWithin, withSession } from '../support.js';

/** `model`, except that the first `close()` of its first connection fails (before the adapter closes anything). */
function failingFirstClose(model: RealtimeModel): { model: RealtimeModel; closeCalls: () => number } {
  let calls = 0;
  const wrapped: RealtimeModel = {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    capabilities: model.capabilities,
    connect: async (options) => {
      const connection = await model.connect(options);
      return new Proxy(connection, {
        get(target, key) {
          if (key === 'close') {
            return async () => {
              if (++calls === 1) throw new Error('closing the socket failed');
              await target.close();
            };
          }
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }) as RealtimeConnection;
    },
  };
  return { model: wrapped, closeCalls: () => calls };
}

/** A provider close that fails is retried by the next close(); once that succeeds nothing is left open. */
export const closeRetryScenario: ConformanceScenario = {
  name: 'close(): a failed provider close is retried by the next close(), which releases the connection',
  requires: [],
  async run(harness) {
    const { model, closeCalls } = failingFirstClose(harness.model);
    const session = new RealtimeSession(new Agent({ name: 'Closer' }), { model });
    const events = new EventRecorder(session);
    await session.connect();
    const first = await session.close().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(first).toBeInstanceOf(ConnectionCloseError);
    expect(events.of('error').map((e) => e.code)).toEqual(['connection_close_failed']);
    await session.close();
    await harness.waitForClientClose();
    await session.close();
    expect(closeCalls()).toBe(2);
    await settlesWithin(events.ended, 'the event stream to end');
  },
};

/** `for await` over the session ends once no more events can come: after close(), and after a disconnect with no reconnect. */
export const iterationEndScenario: ConformanceScenario = {
  name: 'for await ends at close() and at a disconnect with no reconnect coming',
  requires: [],
  async run(harness) {
    const iterate = (session: RealtimeSession) =>
      (async () => {
        const seen: string[] = [];
        for await (const event of session as AsyncIterable<RealtimeSessionEvent>) seen.push(event.type);
        return seen;
      })();
    await withSession(
      harness,
      new Agent({ name: 'Listener' }),
      async (session) => {
        await session.connect();
        const loop = iterate(session);
        await harness.disconnect();
        const seen = await settlesWithin(loop, 'for await to end after the disconnect');
        expect(seen).toContain('connection_status');
        expect(session.status).toBe('disconnected');
        await session.connect();
        const again = iterate(session);
        await session.close();
        expect(await settlesWithin(again, 'for await to end after close()')).toContain('connection_status');
      },
      { reconnect: false },
    );
  },
};

/** Short bounds so that, on the system clock (a harness without `sessionClock`), the scenario stays quick. */
const REPLY_TIMEOUT_MS = 1_000;
const STALE_RESPONSE_MS = 1_500;
/** How far the scenario moves a harness's `sessionClock` at a time. */
const CLOCK_STEP_MS = 50;

/**
 * Moves `clock` in small steps until `responseId` ended, short of the response timeout of the request queued behind it
 * (the stale response must be dropped before that request times out); fails if it did not end by then.
 */
async function advanceUntilEnded(
  clock: SteppedClock,
  events: EventRecorder,
  responseId: string,
): Promise<void> {
  const ended = () => events.of('response_done').some((e) => e.responseId === responseId);
  for (let advanced = 0; !ended() && advanced + CLOCK_STEP_MS < REPLY_TIMEOUT_MS; advanced += CLOCK_STEP_MS) {
    await clock.advance(CLOCK_STEP_MS);
  }
  if (!ended()) {
    throw new Error(
      `The response that never ends was not dropped within ${REPLY_TIMEOUT_MS} ms (responseTimeoutMs) of session ` +
        'time, so the request queued behind it would time out.',
    );
  }
}

/**
 * A response that never ends cannot block the session: the silent response is cancelled by its id and dropped
 * before the response timeout of a request queued behind it runs out, and that request goes out and is answered.
 * On the harness's `sessionClock` time moves only when the scenario moves it: once the held message arrived, until the
 * drop; then not at all, so the queued request cannot time out however slowly the machine answers it.
 */
export const staleResponseScenario: ConformanceScenario = {
  name: 'a response that never ends: it is dropped, and a request queued behind it goes out and is answered',
  requires: ['responseRequests'],
  async run(harness) {
    const clock = harness.sessionClock;
    await withSession(
      harness,
      new Agent({ name: 'Patient' }),
      async (session, events) => {
        await session.connect();
        await harness.respondWith(
          { output: [{ type: 'message', text: 'Hold on.' }], hold: true },
          { output: [{ type: 'message', text: 'Back.' }] },
        );
        session.sendMessage('Are you there?');
        const { responseId } = await events.waitFor('response_started');
        const queued = session.generateResponse();
        if (clock) {
          await events.waitUntil(
            () => events.spokenText(responseId) === 'Hold on.' || undefined,
            'the held response to deliver its message',
          );
          await advanceUntilEnded(clock, events, responseId);
        }
        const outcome = await settlesWithin(
          queued.then(
            (id) => id,
            (error: unknown) => error,
          ),
          'the queued request to start',
        );
        expect(outcome).not.toBeInstanceOf(Error);
        const dropped = await events.waitFor('response_done', (e) => e.responseId === responseId);
        expect(dropped).toMatchObject({ status: 'failed', reason: 'stale' });
        const stale = await events.waitFor('error', (e) => e.code === 'response_stale');
        expect(stale.error).toBeInstanceOf(StaleResponseError);
        expect(stale.error).toMatchObject({ responseId, blockedRequestId: queued.clientRequestId });
        await harness.waitForCommand((c) => c.type === 'cancelResponse' && c.responseId === responseId);
        // The queued request went out after the drop and is answered.
        const answered = await settlesWithin(queued.done, 'the queued request to be answered');
        expect(answered).toMatchObject({ status: 'completed' });
        expect(events.of('response_done').filter((e) => e.responseId === responseId)).toHaveLength(1);
        expect(events.of('error').filter((e) => e.error instanceof ResponseTimeoutError)).toEqual([]);
      },
      {
        responseTimeoutMs: REPLY_TIMEOUT_MS,
        staleResponseMs: STALE_RESPONSE_MS,
        ...(clock === undefined ? {} : { clock }),
      },
    );
  },
};

/** An approval check that waits on the app gets a signal, and cannot hold close(). */
export const callbackSignalScenario: ConformanceScenario = {
  name: 'a needsApproval that never answers is aborted by close(), which does not wait for it',
  requires: ['responseRequests'],
  async run(harness) {
    const signals: AbortSignal[] = [];
    const asked = deferred();
    let ran = false;
    const pay = tool({
      name: 'pay',
      description: 'Pays an amount',
      parameters: z.object({ amount: z.number() }),
      needsApproval: (_context, _input, call) => {
        signals.push(call.signal);
        asked.resolve();
        return new Promise<never>(() => {});
      },
      execute: () => {
        ran = true;
        return 'paid';
      },
    });
    const session = new RealtimeSession(new Agent({ name: 'Cashier', tools: [pay] }), {
      model: harness.model,
    });
    await session.connect();
    await harness.respondWith({
      output: [{ type: 'function_call', name: 'pay', arguments: { amount: 40 } }],
    });
    session.sendMessage('Pay 40.');
    await settlesWithin(asked.promise, 'needsApproval to be called');
    expect(signals[0]?.aborted).toBe(false);
    await settlesWithin(session.close(), 'close() while needsApproval waits');
    expect(signals[0]?.aborted).toBe(true);
    expect(ran).toBe(false);
    await harness.waitForClientClose();
  },
};
