import { Agent, MaxTurnsExceededError, Runner } from '@parley/core';
import { MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { bothWays } from './both-ways.js';
import { adder } from './fixtures.js';

describe('turn loop', () => {
  test('a tool call forces another turn; the tool output reaches the next request', async () => {
    await bothWays(async (h) => {
      const { add, calls } = adder();
      const model = h.model([MockModel.toolCall('add', { a: 2, b: 3 }), MockModel.text('5')]);
      const agent = new Agent({ name: 'Calc', instructions: 'Add things.', tools: [add], model });
      const result = await h.run(agent, 'What is 2+3?');
      expect(result.finalOutput).toBe('5');
      expect(calls).toEqual([{ a: 2, b: 3 }]);
      expect(result.state.currentTurn).toBe(2);
      expect(model.callCount).toBe(2);
      expect(model.requests[0]?.systemInstructions).toBe('Add things.');
      expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(['add']);
      expect(model.requests[1]?.input).toEqual([
        { type: 'message', role: 'user', content: 'What is 2+3?' },
        { type: 'function_call', callId: 'call_1', name: 'add', arguments: '{"a":2,"b":3}' },
        { type: 'function_call_output', callId: 'call_1', output: '5' },
      ]);
      expect(result.newItems.map((item) => item.type)).toEqual([
        'tool_call_item',
        'tool_call_output_item',
        'message_output_item',
      ]);
      expect(result.newItems.every((item) => item.agent === agent)).toBe(true);
      expect(result.history).toEqual([
        ...(model.requests[1]?.input ?? []),
        { type: 'message', role: 'assistant', content: '5' },
      ]);
      expect(result.usage.requests).toBe(2);
      expect(result.usage.totalTokens).toBe(
        result.rawResponses.reduce((sum, response) => sum + response.usage.totalTokens, 0),
      );
      model.assertComplete();
    });
  });

  test('text together with a tool call is not final: the loop runs again', async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const model = h.model([
        MockModel.turn(MockModel.text('Let me add.'), MockModel.toolCall('add', { a: 1, b: 1 })),
        MockModel.text('2'),
      ]);
      const result = await h.run(new Agent({ name: 'Calc', tools: [add], model }), 'hi');
      expect(result.finalOutput).toBe('2');
      expect(result.newItems.map((item) => item.type)).toEqual([
        'message_output_item',
        'tool_call_item',
        'tool_call_output_item',
        'message_output_item',
      ]);
    });
  });

  test('several tool calls in one response run in the same turn; outputs keep call order', async () => {
    await bothWays(async (h) => {
      const { add, calls } = adder();
      const model = h.model([
        MockModel.turn(
          MockModel.toolCall('add', { a: 1, b: 2 }),
          MockModel.toolCall('add', { a: 10, b: 20 }),
        ),
        MockModel.text('3 and 30'),
      ]);
      const result = await h.run(new Agent({ name: 'Calc', tools: [add], model }), 'two sums');
      expect(result.state.currentTurn).toBe(2);
      expect(calls).toHaveLength(2);
      expect(model.requests[1]?.input.slice(-2)).toEqual([
        { type: 'function_call_output', callId: 'call_1', output: '3' },
        { type: 'function_call_output', callId: 'call_2', output: '30' },
      ]);
    });
  });

  test('maxTurns 1: a final answer in one call works', async () => {
    await bothWays(async (h) => {
      const model = h.model([MockModel.text('done')]);
      const result = await h.run(new Agent({ name: 'A', model }), 'go', { maxTurns: 1 });
      expect(result.finalOutput).toBe('done');
      expect(result.state.currentTurn).toBe(1);
      expect(result.state.maxTurns).toBe(1);
    });
  });

  test('maxTurns 1: a tool call needs a second turn, so the run fails without calling the model again', async () => {
    await bothWays(async (h) => {
      const { add, calls } = adder();
      const model = h.model([MockModel.toolCall('add', { a: 1, b: 2 }), MockModel.text('3')]);
      const agent = new Agent({ name: 'A', tools: [add], model });
      const error = await h.run(agent, 'go', { maxTurns: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MaxTurnsExceededError);
      const maxTurnsError = error as MaxTurnsExceededError;
      expect(maxTurnsError.code).toBe('max_turns_exceeded');
      expect(maxTurnsError.maxTurns).toBe(1);
      expect(model.callCount).toBe(1);
      expect(calls).toHaveLength(1);
      // The state stops at the turn boundary and can go on with a bigger budget.
      expect(maxTurnsError.state.currentTurn).toBe(1);
      expect(maxTurnsError.state.status).toBe('in_progress');
      const resumed = await h.run(agent, maxTurnsError.state, { maxTurns: 2 });
      expect(resumed.finalOutput).toBe('3');
      expect(resumed.state.currentTurn).toBe(2);
      model.assertComplete();
    });
  });

  test('default maxTurns is 10', async () => {
    await bothWays(async (h) => {
      const { add, calls } = adder();
      const model = h.model(Array.from({ length: 11 }, () => MockModel.toolCall('add', { a: 1, b: 1 })));
      const error = await h
        .run(new Agent({ name: 'Loop', tools: [add], model }), 'loop')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MaxTurnsExceededError);
      expect((error as MaxTurnsExceededError).maxTurns).toBe(10);
      expect(model.callCount).toBe(10);
      expect(calls).toHaveLength(10);
      expect(model.remaining).toBe(1);
    });
  });

  test('maxTurns Infinity is unlimited', async () => {
    await bothWays(async (h) => {
      const { add, calls } = adder();
      const model = h.model([
        ...Array.from({ length: 25 }, () => MockModel.toolCall('add', { a: 1, b: 1 })),
        MockModel.text('finally'),
      ]);
      const result = await h.run(new Agent({ name: 'Loop', tools: [add], model }), 'loop', {
        maxTurns: Number.POSITIVE_INFINITY,
      });
      expect(result.finalOutput).toBe('finally');
      expect(result.state.currentTurn).toBe(26);
      expect(calls).toHaveLength(25);
      // Unlimited survives serialization.
      expect(result.state.toJSON().maxTurns).toBeNull();
    });
  });

  test('a Runner default maxTurns applies; the run option overrides it', async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const script = () => [MockModel.toolCall('add', { a: 1, b: 1 }), MockModel.text('ok')];
      const runner = new Runner({ maxTurns: 1 });
      const first = h.model(script());
      await expect(
        h.run(new Agent({ name: 'A', tools: [add], model: first }), 'x', {}, runner),
      ).rejects.toThrow(MaxTurnsExceededError);
      const second = h.model(script());
      const result = await h.run(
        new Agent({ name: 'A', tools: [add], model: second }),
        'x',
        { maxTurns: 2 },
        runner,
      );
      expect(result.finalOutput).toBe('ok');
    });
  });

  test('conversation items are accepted as input and passed through', async () => {
    await bothWays(async (h) => {
      const model = h.model([MockModel.text('Paris')]);
      const input = [
        { type: 'message' as const, role: 'user' as const, content: 'Capital of France?' },
        { type: 'message' as const, role: 'assistant' as const, content: 'Which country?' },
        { type: 'message' as const, role: 'user' as const, content: 'France.' },
      ];
      const result = await h.run(new Agent({ name: 'Geo', model }), input);
      expect(model.requests[0]?.input).toEqual(input);
      expect(result.history).toEqual([...input, { type: 'message', role: 'assistant', content: 'Paris' }]);
    });
  });
});
