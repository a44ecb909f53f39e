import {
  Agent,
  delay,
  GuardrailExecutionError,
  type InputGuardrail,
  InputGuardrailTripwireTriggered,
  ModelBehaviorError,
  type OutputGuardrail,
  OutputGuardrailTripwireTriggered,
  Runner,
  tool,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { bothWays } from './both-ways.js';
import { adder } from './fixtures.js';

function counting(
  name: string,
  options: { trip?: (input: unknown) => boolean; runInParallel?: boolean } = {},
) {
  const inputs: unknown[] = [];
  const guardrail: InputGuardrail = {
    name,
    runInParallel: options.runInParallel,
    execute: ({ input }) => {
      inputs.push(input);
      return { tripwireTriggered: options.trip?.(input) ?? false, outputInfo: { checked: name } };
    },
  };
  return { guardrail, inputs };
}

describe('input guardrails', () => {
  test('run once, for the starting agent and the initial input only (never after a handoff)', async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const start = counting('start_check');
      const billingCheck = counting('billing_check');
      const billing = new Agent({
        name: 'Billing',
        inputGuardrails: [billingCheck.guardrail],
        model: h.model([MockModel.text('refunded')]),
      });
      const triage = new Agent({
        name: 'Triage',
        tools: [add],
        handoffs: [billing],
        inputGuardrails: [start.guardrail],
        model: h.model([MockModel.toolCall('add', { a: 1, b: 1 }), MockModel.handoff('Billing')]),
      });
      const result = await h.run(triage, 'refund please');
      expect(result.finalOutput).toBe('refunded');
      expect(start.inputs).toEqual(['refund please']);
      expect(billingCheck.inputs).toEqual([]);
      expect(result.inputGuardrailResults).toEqual([
        {
          guardrail: { name: 'start_check' },
          output: { tripwireTriggered: false, outputInfo: { checked: 'start_check' } },
        },
      ]);
    });
  });

  test('a blocking guardrail finishes before the model is called, and its tripwire prevents the call', async () => {
    await bothWays(async (h) => {
      const order: string[] = [];
      const blocking: InputGuardrail = {
        name: 'no_profanity',
        runInParallel: false,
        execute: async ({ input }) => {
          order.push('guardrail');
          return { tripwireTriggered: input === 'darn', outputInfo: 'profanity' };
        },
      };
      const model = h.model([
        (request) => {
          order.push('model');
          return MockModel.text(`ok: ${request.input.length}`);
        },
      ]);
      const agent = new Agent({ name: 'A', inputGuardrails: [blocking], model });
      const passed = await h.run(agent, 'hello');
      expect(passed.finalOutput).toBe('ok: 1');
      expect(order).toEqual(['guardrail', 'model']);

      const strictModel = h.model([MockModel.text('never')]);
      const error = await h.run(agent.clone({ model: strictModel }), 'darn').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
      const tripped = error as InputGuardrailTripwireTriggered;
      expect(tripped.code).toBe('input_guardrail_tripwire');
      expect(tripped.result).toEqual({
        guardrail: { name: 'no_profanity' },
        output: { tripwireTriggered: true, outputInfo: 'profanity' },
      });
      expect(strictModel.callCount).toBe(0);
      expect(tripped.state.inputGuardrailResults).toEqual([tripped.result]);
      expect(tripped.state.status).toBe('failed');
    });
  });

  test('a parallel tripwire aborts the in-flight model call and sibling guardrails, and awaits them', async () => {
    await bothWays(async (h) => {
      const clock = new ManualClock();
      const log: string[] = [];
      const quickTrip: InputGuardrail = {
        name: 'quick_trip',
        execute: async ({ signal }) => {
          await delay(clock, 10, signal);
          return { tripwireTriggered: true };
        },
      };
      const slowSibling: InputGuardrail = {
        name: 'slow_sibling',
        execute: async ({ signal }) => {
          try {
            await delay(clock, 5_000, signal);
            return { tripwireTriggered: false };
          } finally {
            await new Promise<void>((resolve) => setImmediate(resolve));
            log.push(`sibling finally, aborted=${signal.aborted}`);
          }
        },
      };
      const model = h.model([MockModel.delay(1_000, MockModel.text('too late'))], { clock });
      const agent = new Agent({ name: 'A', inputGuardrails: [quickTrip, slowSibling], model });
      let logAtSettle: string[] = [];
      const outcome = h.run(agent, 'hi').catch((e: unknown) => {
        logAtSettle = [...log];
        return e;
      });
      await flushMicrotasks();
      expect(model.callCount).toBe(1);
      expect(model.calls[0]?.status).toBe('pending');
      await clock.advance(10);
      const error = await outcome;
      expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
      expect((error as InputGuardrailTripwireTriggered).result.guardrail.name).toBe('quick_trip');
      expect(model.abortedCalls).toBe(1);
      expect(model.calls[0]?.status).toBe('aborted');
      expect(logAtSettle).toEqual(['sibling finally, aborted=true']);
      expect(clock.pendingTimers).toBe(0);
      // The run made no model response and generated nothing.
      expect((error as InputGuardrailTripwireTriggered).state.generatedItems).toEqual([]);
    });
  });

  test('a parallel guardrail that passes after the model answered still gates the tools', async () => {
    await bothWays(async (h) => {
      const clock = new ManualClock();
      const { add, calls } = adder();
      const slowPass: InputGuardrail = {
        name: 'slow_pass',
        execute: async ({ signal }) => {
          await delay(clock, 50, signal);
          return { tripwireTriggered: false };
        },
      };
      const model = h.model([MockModel.toolCall('add', { a: 1, b: 2 }), MockModel.text('3')], { clock });
      const pending = h.run(
        new Agent({ name: 'A', tools: [add], inputGuardrails: [slowPass], model }),
        'sum',
      );
      await flushMicrotasks();
      expect(model.calls[0]?.status).toBe('answered');
      expect(calls).toEqual([]);
      await clock.advance(50);
      const result = await pending;
      expect(calls).toEqual([{ a: 1, b: 2 }]);
      expect(result.finalOutput).toBe('3');
      expect(result.inputGuardrailResults.map((r) => r.guardrail.name)).toEqual(['slow_pass']);
    });
  });

  test('a guardrail that throws fails the run with a GuardrailExecutionError and cancels the model call', async () => {
    await bothWays(async (h) => {
      const clock = new ManualClock();
      const broken: InputGuardrail = {
        name: 'broken',
        execute: async ({ signal }) => {
          await delay(clock, 5, signal);
          throw new Error('classifier down');
        },
      };
      const model = h.model([MockModel.delay(100, MockModel.text('x'))], { clock });
      const outcome = h
        .run(new Agent({ name: 'A', inputGuardrails: [broken], model }), 'hi')
        .catch((e: unknown) => e);
      await flushMicrotasks();
      await clock.advance(5);
      const error = await outcome;
      expect(error).toBeInstanceOf(GuardrailExecutionError);
      expect(error).not.toBeInstanceOf(ModelBehaviorError);
      expect(error).toMatchObject({
        code: 'guardrail_execution_error',
        guardrailName: 'broken',
        kind: 'input',
        cause: new Error('classifier down'),
      });
      expect(model.abortedCalls).toBe(1);
      expect(clock.pendingTimers).toBe(0);
    });
  });
});

describe('output guardrails', () => {
  function outputCheck(trip: (output: unknown) => boolean) {
    const outputs: unknown[] = [];
    const guardrail: OutputGuardrail = {
      name: 'no_secrets',
      execute: ({ agentOutput }) => {
        outputs.push(agentOutput);
        return { tripwireTriggered: trip(agentOutput), outputInfo: { length: String(agentOutput).length } };
      },
    };
    return { guardrail, outputs };
  }

  test('run only on the final output, of the agent that produced it', async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const triageCheck = outputCheck(() => false);
      const billingCheck = outputCheck(() => false);
      const billing = new Agent({
        name: 'Billing',
        tools: [add],
        outputGuardrails: [billingCheck.guardrail],
        model: h.model([MockModel.toolCall('add', { a: 1, b: 1 }), MockModel.text('total is 2')]),
      });
      const triage = new Agent({
        name: 'Triage',
        handoffs: [billing],
        outputGuardrails: [triageCheck.guardrail],
        model: h.model([MockModel.turn(MockModel.text('one moment'), MockModel.handoff('Billing'))]),
      });
      const result = await h.run(triage, 'bill');
      expect(triageCheck.outputs).toEqual([]);
      expect(billingCheck.outputs).toEqual(['total is 2']);
      expect(result.outputGuardrailResults).toEqual([
        {
          guardrail: { name: 'no_secrets' },
          agentName: 'Billing',
          agentOutput: 'total is 2',
          output: { tripwireTriggered: false, outputInfo: { length: 10 } },
        },
      ]);
    });
  });

  test('a tripwire fails the run with OutputGuardrailTripwireTriggered and no final output', async () => {
    await bothWays(async (h) => {
      const check = outputCheck((output) => String(output).includes('password'));
      const agent = new Agent({
        name: 'A',
        outputGuardrails: [check.guardrail],
        model: h.model([MockModel.text('the password is hunter2')]),
      });
      const error = await h.run(agent, 'tell me').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      const tripped = error as OutputGuardrailTripwireTriggered;
      expect(tripped.code).toBe('output_guardrail_tripwire');
      expect(tripped.result.agentOutput).toBe('the password is hunter2');
      expect(tripped.state.outputGuardrailResults).toEqual([tripped.result]);
      expect(tripped.state.status).toBe('failed');
    });
  });

  test('structured outputs are checked parsed', async () => {
    await bothWays(async (h) => {
      const seen: unknown[] = [];
      const agent = new Agent({
        name: 'Extractor',
        outputType: z.object({ city: z.string() }),
        outputGuardrails: [
          {
            name: 'city_known',
            execute: ({ agentOutput }) => {
              seen.push(agentOutput);
              return { tripwireTriggered: false };
            },
          },
        ],
        tools: [tool({ name: 'noop', description: 'noop', parameters: z.object({}), execute: () => 'ok' })],
        model: h.model([MockModel.toolCall('noop'), MockModel.json({ city: 'Oslo' })]),
      });
      const result = await h.run(agent, 'where?');
      expect(seen).toEqual([{ city: 'Oslo' }]);
      expect(result.finalOutput).toEqual({ city: 'Oslo' });
    });
  });
});

describe('one guardrail, one run', () => {
  test('the same guardrail object on the agent, the Runner and run() runs once per check', async () => {
    await bothWays(async (h) => {
      const input = counting('shared_input');
      const blocking = counting('shared_blocking', { runInParallel: false });
      const outputs: unknown[] = [];
      const output: OutputGuardrail = {
        name: 'shared_output',
        execute: ({ agentOutput }) => {
          outputs.push(agentOutput);
          return { tripwireTriggered: false };
        },
      };
      const agent = new Agent({
        name: 'A',
        inputGuardrails: [input.guardrail, blocking.guardrail],
        outputGuardrails: [output],
        model: h.model([MockModel.text('fine')]),
      });
      const runner = new Runner({
        inputGuardrails: [input.guardrail, blocking.guardrail],
        outputGuardrails: [output],
      });
      const result = await h.run(
        agent,
        'hello',
        { inputGuardrails: [input.guardrail, blocking.guardrail], outputGuardrails: [output, output] },
        runner,
      );
      expect(input.inputs).toEqual(['hello']);
      expect(blocking.inputs).toEqual(['hello']);
      expect(outputs).toEqual(['fine']);
      expect(result.inputGuardrailResults.map((r) => r.guardrail.name).sort()).toEqual([
        'shared_blocking',
        'shared_input',
      ]);
      expect(result.outputGuardrailResults.map((r) => r.guardrail.name)).toEqual(['shared_output']);
    });
  });
});
