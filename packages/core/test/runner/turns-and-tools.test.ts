import {
  Agent,
  type InputGuardrail,
  InputGuardrailTripwireTriggered,
  MaxTurnsExceededError,
  ModelBehaviorError,
  Runner,
  RunState,
  type ToolInputGuardrail,
  type ToolOutputGuardrail,
  tool,
} from '@parley/core';
import { MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { bothWays } from './both-ways.js';
import { adder } from './fixtures.js';

describe('turn accounting', () => {
  test('a blocking input guardrail that trips before any model call leaves the turn counter at 0', async () => {
    await bothWays(async (h) => {
      const blocking: InputGuardrail = {
        name: 'blocking',
        runInParallel: false,
        execute: () => ({ tripwireTriggered: true }),
      };
      const model = h.model([MockModel.text('never')]);
      const error = await h
        .run(new Agent({ name: 'A', inputGuardrails: [blocking], model }), 'hi')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
      const state = (error as InputGuardrailTripwireTriggered).state;
      expect(state.currentTurn).toBe(0);
      expect(state.usage.requests).toBe(0);
      expect(model.callCount).toBe(0);
    });
  });

  test('maxTurns 0 is accepted and fails before any model call; the state resumes with a budget', async () => {
    await bothWays(async (h) => {
      const model = h.model([MockModel.text('done')]);
      const agent = new Agent({ name: 'A', model });
      const error = await h.run(agent, 'hi', { maxTurns: 0 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MaxTurnsExceededError);
      expect(error).toMatchObject({ maxTurns: 0 });
      expect(model.callCount).toBe(0);
      const state = RunState.fromString(agent, (error as MaxTurnsExceededError).state.toString());
      expect(state.maxTurns).toBe(0);
      const resumed = await h.run(agent, state, { maxTurns: 1 });
      expect(resumed.finalOutput).toBe('done');
      expect(resumed.state.currentTurn).toBe(1);
    });
  });

  test('maxTurns null means unlimited, on a run and on a Runner, as in the saved state', async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const script = Array.from({ length: 12 }, (_, i) => MockModel.toolCall('add', { a: i, b: 1 }));
      const model = h.model([...script, MockModel.text('done'), ...script, MockModel.text('again')]);
      const agent = new Agent({ name: 'A', tools: [add], model });
      const result = await h.run(agent, 'go', { maxTurns: null });
      expect(result.finalOutput).toBe('done');
      expect(result.state.currentTurn).toBe(13);
      expect(result.state.maxTurns).toBe(Number.POSITIVE_INFINITY);
      expect(result.state.toJSON().maxTurns).toBeNull();
      const viaRunner = await h.run(agent, 'go', {}, new Runner({ maxTurns: null }));
      expect(viaRunner.finalOutput).toBe('again');
    });
  });
});

describe('call ids', () => {
  test.each([
    ['the same arguments', { a: 1, b: 2 }],
    ['other arguments', { a: 5, b: 5 }],
  ])(
    'a call id that already has an output, sent again with %s, is a ModelBehaviorError naming it',
    async (_label, args) => {
      await bothWays(async (h) => {
        const { add, calls } = adder();
        const model = h.model([
          MockModel.toolCall('add', { a: 1, b: 2 }, { callId: 'call_7' }),
          MockModel.toolCall('add', args, { callId: 'call_7' }),
          MockModel.text('never'),
        ]);
        const error = await h
          .run(new Agent({ name: 'A', tools: [add], model }), 'go')
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ModelBehaviorError);
        expect((error as Error).message).toContain('"call_7"');
        expect(calls).toEqual([{ a: 1, b: 2 }]);
        expect(model.callCount).toBe(2);
      });
    },
  );

  test('a call id answered in the input (or repeated within one response) is an error too', async () => {
    await bothWays(async (h) => {
      const { add, calls } = adder();
      const history = [
        { type: 'message' as const, role: 'user' as const, content: 'add' },
        { type: 'function_call' as const, callId: 'old', name: 'add', arguments: '{"a":1,"b":1}' },
        { type: 'function_call_output' as const, callId: 'old', output: '2' },
      ];
      const fromInput = h.model([MockModel.toolCall('add', { a: 1, b: 1 }, { callId: 'old' })]);
      await expect(h.run(new Agent({ name: 'A', tools: [add], model: fromInput }), history)).rejects.toThrow(
        /"old".*already has an output/,
      );
      const twice = h.model([
        MockModel.turn(
          MockModel.toolCall('add', { a: 1, b: 1 }, { callId: 'dup' }),
          MockModel.toolCall('add', { a: 2, b: 2 }, { callId: 'dup' }),
        ),
      ]);
      await expect(h.run(new Agent({ name: 'A', tools: [add], model: twice }), 'go')).rejects.toThrow(
        /"dup".*twice in one response/,
      );
      expect(calls).toEqual([]);
    });
  });
});

describe('toolUseBehavior', () => {
  test("'run_llm_again' (default) calls the model again with the outputs", async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const model = h.model([MockModel.toolCall('add', { a: 1, b: 2 }), MockModel.text('3')]);
      const agent = new Agent({ name: 'A', tools: [add], model });
      expect(agent.toolUseBehavior).toBe('run_llm_again');
      expect((await h.run(agent, 'go')).finalOutput).toBe('3');
      expect(model.callCount).toBe(2);
    });
  });

  test("'stop_on_first_tool': the first tool's output is the final output, with no other model call", async () => {
    await bothWays(async (h) => {
      const { add, calls } = adder();
      const model = h.model([
        MockModel.turn(MockModel.toolCall('add', { a: 1, b: 2 }), MockModel.toolCall('add', { a: 3, b: 4 })),
      ]);
      const agent = new Agent({ name: 'A', tools: [add], model, toolUseBehavior: 'stop_on_first_tool' });
      const result = await h.run(agent, 'go');
      expect(result.finalOutput).toBe('3');
      expect(calls).toHaveLength(2);
      expect(model.callCount).toBe(1);
      expect(result.state.status).toBe('completed');
      model.assertComplete();
    });
  });

  test('{ stopAtToolNames }: stops at the first call to a listed tool, else runs again', async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const finish = tool({
        name: 'finish',
        description: 'final answer',
        parameters: z.object({ answer: z.string() }),
        execute: ({ answer }) => answer,
      });
      const model = h.model([
        MockModel.toolCall('add', { a: 1, b: 2 }),
        MockModel.turn(
          MockModel.toolCall('add', { a: 1, b: 1 }),
          MockModel.toolCall('finish', { answer: 'ok' }),
        ),
      ]);
      const agent = new Agent({
        name: 'A',
        tools: [add, finish],
        model,
        toolUseBehavior: { stopAtToolNames: ['finish'] },
      });
      const result = await h.run(agent, 'go');
      expect(result.finalOutput).toBe('ok');
      expect(model.callCount).toBe(2);
    });
  });

  test('a function decides from the tool results (and may keep going)', async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const seen: string[][] = [];
      const model = h.model([
        MockModel.toolCall('add', { a: 1, b: 1 }),
        MockModel.toolCall('add', { a: 20, b: 22 }),
      ]);
      const agent = new Agent({
        name: 'A',
        tools: [add],
        model,
        toolUseBehavior: (_context, results) => {
          seen.push(results.map((r) => `${r.tool.name}(${r.call.arguments})=${r.output}`));
          const value = Number(results[0]?.output);
          return value > 10
            ? { isFinalOutput: true, finalOutput: { total: value } }
            : { isFinalOutput: false };
        },
      });
      const result = await h.run(agent, 'go');
      expect(result.finalOutput).toEqual({ total: 42 });
      expect(seen).toEqual([['add({"a":1,"b":1})=2'], ['add({"a":20,"b":22})=42']]);
    });
  });

  test("on resume after an approval, the approved tool's output is the final output without a model call", async () => {
    await bothWays(async (h) => {
      const refunds: string[] = [];
      const refund = tool({
        name: 'refund',
        description: 'refund',
        parameters: z.object({ orderId: z.string() }),
        needsApproval: true,
        execute: ({ orderId }) => {
          refunds.push(orderId);
          return `refunded ${orderId}`;
        },
      });
      const model = h.model([MockModel.toolCall('refund', { orderId: 'A1' })]);
      const agent = new Agent({ name: 'A', tools: [refund], model, toolUseBehavior: 'stop_on_first_tool' });
      const paused = await h.run(agent, 'refund A1');
      expect(paused.finalOutput).toBeUndefined();
      const state = RunState.fromString(agent, paused.state.toString());
      state.approve(state.getInterruptions()[0]!);
      const resumed = await h.run(agent, state);
      expect(resumed.finalOutput).toBe('refunded A1');
      expect(refunds).toEqual(['A1']);
      expect(model.callCount).toBe(1);
      expect(resumed.state.currentTurn).toBe(1);
    });
  });

  test('a handoff in the same turn wins; an invalid value is a UserError', async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const billing = new Agent({ name: 'Billing', model: h.model([MockModel.text('billing here')]) });
      const triage = new Agent({
        name: 'Triage',
        tools: [add],
        handoffs: [billing],
        toolUseBehavior: 'stop_on_first_tool',
        model: h.model([
          MockModel.turn(MockModel.toolCall('add', { a: 1, b: 1 }), MockModel.handoff('Billing')),
        ]),
      });
      expect((await h.run(triage, 'go')).finalOutput).toBe('billing here');
      expect(
        () => new Agent({ name: 'X', toolUseBehavior: 'stop' as unknown as 'stop_on_first_tool' }),
      ).toThrow(expect.objectContaining({ code: 'invalid_tool_use_behavior' }));
    });
  });
});

describe('unknown tools', () => {
  test("unknownToolBehavior: 'raise_exception' ends the run with a ModelBehaviorError; the default goes back to the model", async () => {
    await bothWays(async (h) => {
      const { add, calls } = adder();
      const strictModel = h.model([
        MockModel.turn(
          MockModel.toolCall('add', { a: 1, b: 1 }),
          MockModel.toolCall('multiply', { a: 2, b: 3 }),
        ),
        MockModel.text('never'),
      ]);
      const error = await h
        .run(new Agent({ name: 'Calc', tools: [add], model: strictModel }), 'x', {
          unknownToolBehavior: 'raise_exception',
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelBehaviorError);
      expect((error as Error).message).toMatch(/"multiply" does not exist\. Available tools: add/);
      expect(calls).toEqual([]);
      expect(strictModel.callCount).toBe(1);

      const viaRunner = new Runner({ unknownToolBehavior: 'raise_exception' });
      const lenient = h.model([MockModel.toolCall('multiply'), MockModel.text('sorry')]);
      const result = await h.run(
        new Agent({ name: 'Calc', tools: [add], model: lenient }),
        'x',
        { unknownToolBehavior: 'error_as_result' },
        viaRunner,
      );
      expect(result.finalOutput).toBe('sorry');
    });
  });
});

describe('tool guardrail results', () => {
  test('are on the result and the state, like the agent guardrail results, and survive serialization', async () => {
    await bothWays(async (h) => {
      const noSecrets: ToolInputGuardrail = {
        name: 'no_secrets',
        execute: ({ input }) =>
          (input as { orderId: string }).orderId === 'SECRET'
            ? { type: 'reject_content', message: 'not allowed' }
            : { type: 'allow' },
      };
      const redact: ToolOutputGuardrail = {
        name: 'redact',
        execute: () => ({ type: 'allow' }),
      };
      const lookup = tool({
        name: 'lookup',
        description: 'lookup',
        parameters: z.object({ orderId: z.string() }),
        inputGuardrails: [noSecrets],
        outputGuardrails: [redact],
        execute: ({ orderId }) => `order ${orderId}`,
      });
      const model = h.model([
        MockModel.turn(
          MockModel.toolCall('lookup', { orderId: 'A1' }, { callId: 'c1' }),
          MockModel.toolCall('lookup', { orderId: 'SECRET' }, { callId: 'c2' }),
        ),
        MockModel.text('done'),
      ]);
      const agent = new Agent({ name: 'A', tools: [lookup], model });
      const result = await h.run(agent, 'go');
      expect(result.toolInputGuardrailResults).toEqual(
        expect.arrayContaining([
          {
            guardrail: { name: 'no_secrets' },
            toolName: 'lookup',
            callId: 'c1',
            decision: { type: 'allow' },
          },
          {
            guardrail: { name: 'no_secrets' },
            toolName: 'lookup',
            callId: 'c2',
            decision: { type: 'reject_content', message: 'not allowed' },
          },
        ]),
      );
      expect(result.toolInputGuardrailResults).toHaveLength(2);
      expect(result.toolOutputGuardrailResults).toEqual([
        { guardrail: { name: 'redact' }, toolName: 'lookup', callId: 'c1', decision: { type: 'allow' } },
      ]);
      const restored = RunState.fromString(agent, result.state.toString());
      expect(restored.toolInputGuardrailResults).toEqual(result.toolInputGuardrailResults);
      expect(restored.toolOutputGuardrailResults).toEqual(result.toolOutputGuardrailResults);
    });
  });
});

describe('model input', () => {
  test('each request gets its own input array; a model that changes it does not change the next request', async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const model = h.model([
        (request) => {
          (request.input as unknown[]).push({ type: 'message', role: 'user', content: 'injected' });
          return MockModel.toolCall('add', { a: 1, b: 1 });
        },
        MockModel.toolCall('add', { a: 2, b: 2 }),
        MockModel.text('4'),
      ]);
      const result = await h.run(new Agent({ name: 'A', tools: [add], model }), 'go');
      expect(result.finalOutput).toBe('4');
      expect(model.requests[2]?.input.map((item) => item.type)).toEqual([
        'message',
        'function_call',
        'function_call_output',
        'function_call',
        'function_call_output',
      ]);
      expect(JSON.stringify(model.requests[2]?.input)).not.toContain('injected');
    });
  });
});
