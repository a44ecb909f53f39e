import {
  Agent,
  type ConversationItem,
  MaxTurnsExceededError,
  ModelBehaviorError,
  Runner,
  run,
  UserError,
  userMessage,
} from '@parley/core';
import { MockModel } from '@parley/mock';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { bothWays } from './both-ways.js';

const Ticket = z.object({ category: z.enum(['billing', 'shipping']), urgent: z.boolean() });

describe('final output', () => {
  test('outputType: the JSON is parsed and validated, and the model is sent the schema', async () => {
    await bothWays(async (h) => {
      const model = h.model([MockModel.json({ category: 'billing', urgent: true })]);
      const agent = new Agent({ name: 'Classifier', outputType: Ticket, model });
      const result = await h.run(agent, 'My invoice is wrong!');
      expect(result.finalOutput).toEqual({ category: 'billing', urgent: true });
      expect(model.requests[0]?.outputSchema).toMatchObject({
        type: 'object',
        properties: { category: { enum: ['billing', 'shipping'] }, urgent: { type: 'boolean' } },
      });
      expect(model.requests[0]?.outputSchema).not.toHaveProperty('$schema');
    });
  });

  test('typed: structured output is typed by the schema, text is a string', async () => {
    const structured = await run(
      new Agent({
        name: 'C',
        outputType: Ticket,
        model: new MockModel([MockModel.json({ category: 'shipping', urgent: false })]),
      }),
      'x',
    );
    expectTypeOf(structured.finalOutput).toEqualTypeOf<z.infer<typeof Ticket> | undefined>();
    const text = await run(new Agent({ name: 'T', model: new MockModel([MockModel.text('hi')]) }), 'x');
    expectTypeOf(text.finalOutput).toEqualTypeOf<string | undefined>();
    expect(text.finalOutput).toBe('hi');
  });

  test('output that is not JSON, or does not match, is a ModelBehaviorError', async () => {
    await bothWays(async (h) => {
      const notJson = new Agent({
        name: 'C',
        outputType: Ticket,
        model: h.model([MockModel.text('billing, urgent')]),
      });
      await expect(h.run(notJson, 'x')).rejects.toThrow(ModelBehaviorError);
      const wrong = new Agent({
        name: 'C',
        outputType: Ticket,
        model: h.model([MockModel.json({ category: 'returns', urgent: 'yes' })]),
      });
      const error = await h.run(wrong, 'x').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelBehaviorError);
      expect(error).toMatchObject({
        code: 'model_behavior',
        message: expect.stringMatching(/category: .*urgent: /),
      });
    });
  });

  test('with several messages and no calls, the last message is the output', async () => {
    await bothWays(async (h) => {
      const model = h.model([MockModel.turn(MockModel.text('Thinking...'), MockModel.text('Answer: 42'))]);
      const result = await h.run(new Agent({ name: 'A', model }), 'x');
      expect(result.finalOutput).toBe('Answer: 42');
      expect(result.newItems).toHaveLength(2);
    });
  });

  test('an empty response is a ModelBehaviorError; a model error fails the run as is', async () => {
    await bothWays(async (h) => {
      const empty = h.model([{ type: 'output', output: [] }]);
      await expect(h.run(new Agent({ name: 'A', model: empty }), 'x')).rejects.toThrow(
        /neither a message nor a function call/,
      );
      const failing = h.model([MockModel.error(new Error('rate limited'))]);
      const error = await h.run(new Agent({ name: 'A', model: failing }), 'x').catch((e: unknown) => e);
      expect(error).toEqual(new Error('rate limited'));
    });
  });
});

describe('bad input fails before any model call', () => {
  test.each([-1, 1.5, Number.NaN, '3'])('maxTurns %s', async (maxTurns) => {
    await bothWays(async (h) => {
      const model = h.model([MockModel.text('x')]);
      await expect(
        h.run(new Agent({ name: 'A', model }), 'x', { maxTurns: maxTurns as number }),
      ).rejects.toThrow(expect.objectContaining({ code: 'invalid_max_turns' }));
      expect(() => new Runner({ maxTurns: maxTurns as number })).toThrow(UserError);
      expect(model.callCount).toBe(0);
    });
  });

  test('input that is not text, items or a RunState; a non-agent', async () => {
    await bothWays(async (h) => {
      const agent = new Agent({ name: 'A', model: h.model() });
      await expect(h.run(agent, 42 as unknown as string)).rejects.toThrow(
        expect.objectContaining({ code: 'invalid_input' }),
      );
      await expect(h.run(agent, [{ role: 'user' }] as unknown as ConversationItem[])).rejects.toThrow(
        UserError,
      );
      await expect(h.run({ name: 'A' } as unknown as Agent, 'x')).rejects.toThrow(
        expect.objectContaining({ code: 'invalid_agent' }),
      );
    });
  });

  test('a state cannot be run twice at once', async () => {
    const model = new MockModel([MockModel.toolCall('nope'), MockModel.text('done')]);
    const agent = new Agent({ name: 'A', model });
    const error = await run(agent, [userMessage('x')], { maxTurns: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MaxTurnsExceededError);
    const first = (error as MaxTurnsExceededError).state;
    const resuming = run(agent, first, { maxTurns: 2 });
    await expect(run(agent, first, { maxTurns: 2 })).rejects.toThrow(
      expect.objectContaining({ code: 'run_state_busy' }),
    );
    expect((await resuming).finalOutput).toBe('done');
  });
});
