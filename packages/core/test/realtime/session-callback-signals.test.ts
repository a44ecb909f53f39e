import { deferred, EventRecorder } from '@parley/conformance';
import {
  Agent,
  handoff,
  type OutputGuardrail,
  RealtimeSession,
  type RealtimeSessionOptions,
  tool,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

/** A promise that never settles: app code that ignores its signal. */
const forever = () => new Promise<never>(() => {});

/** Resolves once `session.close()` has finished; fails the test if it is still waiting after the microtasks settle. */
async function expectClosesAtOnce(session: RealtimeSession): Promise<void> {
  let closed = false;
  const closing = session.close().then(() => {
    closed = true;
  });
  await flushMicrotasks();
  expect(closed).toBe(true);
  await closing;
}

async function start(agent: Agent, options: Omit<RealtimeSessionOptions, 'model'> = {}) {
  const clock = new ManualClock();
  const model = new MockRealtimeModel({ clock, capabilities: { autoToolResponseGeneration: false } });
  const session = new RealtimeSession(agent, { model, clock, ...options });
  const log = new EventRecorder(session);
  await session.connect();
  return { clock, model, session, log };
}

/** A tool whose approval check waits on the app forever; `signals` receives the signal it was given. */
function approvalWaitsForever(signals: AbortSignal[], called = deferred()) {
  return tool({
    name: 'pay',
    description: 'Pays',
    parameters: z.object({ amount: z.number() }),
    needsApproval: (_context, _input, call) => {
      signals.push(call.signal);
      called.resolve();
      return forever();
    },
    execute: () => 'paid',
  });
}

describe('app callbacks that can wait get a signal and cannot hold close() or a reconnect', () => {
  test('needsApproval gets call.signal; close() aborts it and does not wait for it', async () => {
    const signals: AbortSignal[] = [];
    const called = deferred();
    const { model, session } = await start(
      new Agent({ name: 'A', tools: [approvalWaitsForever(signals, called)] }),
    );
    model.respondWith({ output: [{ type: 'function_call', name: 'pay', arguments: { amount: 5 } }] });
    session.sendMessage('pay 5');
    await called.promise;
    expect(signals[0]?.aborted).toBe(false);
    await expectClosesAtOnce(session);
    expect(signals[0]?.aborted).toBe(true);
    expect(model.connection.closeCalls).toBe(1);
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toHaveLength(0);
  });

  test('a reconnect aborts a needsApproval bound to the dead connection and does not wait for it', async () => {
    const signals: AbortSignal[] = [];
    const called = deferred();
    const { clock, model, session, log } = await start(
      new Agent({ name: 'A', tools: [approvalWaitsForever(signals, called)] }),
      { reconnect: { initialDelayMs: 100 } },
    );
    model.respondWith({ output: [{ type: 'function_call', name: 'pay', arguments: { amount: 5 } }] });
    session.sendMessage('pay 5');
    await called.promise;
    model.connection.disconnect();
    await flushMicrotasks();
    expect(signals[0]?.aborted).toBe(true);
    await clock.advance(1_000);
    await log.waitFor('reconnected');
    expect(session.status).toBe('connected');
    await session.close();
  });

  test('an output guardrail gets a signal; close() aborts it and does not wait for it', async () => {
    const signals: AbortSignal[] = [];
    const called = deferred();
    const stubborn: OutputGuardrail = {
      name: 'stubborn',
      execute: ({ signal }) => {
        signals.push(signal);
        called.resolve();
        return forever();
      },
    };
    const { model, session } = await start(new Agent({ name: 'A' }), {
      outputGuardrails: [stubborn],
      guardrailDebounceChars: 5,
    });
    model.respondWith({ output: [{ type: 'message', text: 'A long enough answer.' }, { type: 'pause' }] });
    session.sendMessage('talk');
    await called.promise;
    await expectClosesAtOnce(session);
    expect(signals[0]?.aborted).toBe(true);
  });

  test('a tool input guardrail gets a signal; close() aborts it and does not wait for it', async () => {
    const signals: AbortSignal[] = [];
    const called = deferred();
    let ran = false;
    const guarded = tool({
      name: 'guarded',
      description: 'Guarded',
      parameters: z.object({}),
      inputGuardrails: [
        {
          name: 'slow_check',
          execute: ({ signal }) => {
            signals.push(signal);
            called.resolve();
            return forever();
          },
        },
      ],
      execute: () => {
        ran = true;
        return 'ran';
      },
    });
    const { model, session } = await start(new Agent({ name: 'A', tools: [guarded] }));
    model.respondWith({ output: [{ type: 'function_call', name: 'guarded' }] });
    session.sendMessage('go');
    await called.promise;
    await expectClosesAtOnce(session);
    expect(signals[0]?.aborted).toBe(true);
    expect(ran).toBe(false);
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toHaveLength(0);
  });

  test('a tool output guardrail gets a signal; close() aborts it and does not wait for it', async () => {
    const signals: AbortSignal[] = [];
    const called = deferred();
    const guarded = tool({
      name: 'guarded',
      description: 'Guarded',
      parameters: z.object({}),
      outputGuardrails: [
        {
          name: 'slow_review',
          execute: ({ signal }) => {
            signals.push(signal);
            called.resolve();
            return forever();
          },
        },
      ],
      execute: () => 'secret',
    });
    const { model, session } = await start(new Agent({ name: 'A', tools: [guarded] }));
    model.respondWith({ output: [{ type: 'function_call', name: 'guarded' }] });
    session.sendMessage('go');
    await called.promise;
    await expectClosesAtOnce(session);
    expect(signals[0]?.aborted).toBe(true);
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toHaveLength(0);
  });

  test('onHandoff gets info.signal; close() aborts it and does not wait for it; the agent does not change', async () => {
    const signals: AbortSignal[] = [];
    const called = deferred();
    const billing = new Agent({ name: 'Billing' });
    const triage = new Agent({
      name: 'Triage',
      handoffs: [
        handoff(billing, {
          onHandoff: (_context, { signal }) => {
            signals.push(signal);
            called.resolve();
            return forever();
          },
        }),
      ],
    });
    const { model, session, log } = await start(triage);
    model.respondWith({ output: [{ type: 'function_call', name: 'transfer_to_billing' }] });
    session.sendMessage('billing please');
    await called.promise;
    await expectClosesAtOnce(session);
    expect(signals[0]?.aborted).toBe(true);
    expect(session.currentAgent).toBe(triage);
    expect(log.of('handoff')).toHaveLength(0);
    expect(model.commands.filter((c) => c.type === 'updateSession' && c !== model.commands[0])).toHaveLength(
      0,
    );
  });
});
