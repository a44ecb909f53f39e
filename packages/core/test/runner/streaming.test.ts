import {
  Agent,
  delay,
  MaxTurnsExceededError,
  MemorySession,
  MODEL_SPECIFICATION_VERSION,
  type Model,
  ModelBehaviorError,
  Runner,
  type RunStreamEvent,
  run,
  tool,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { adder } from './fixtures.js';

function describeEvent(event: RunStreamEvent<unknown>): string {
  switch (event.type) {
    case 'agent_updated':
      return `agent ${event.agent.name}`;
    case 'run_item':
      return `item ${event.name}`;
    case 'raw_model_event':
      return event.data.type === 'text_delta' ? `delta ${event.data.delta}` : `raw ${event.data.type}`;
    case 'agent_tool_event':
      return `${event.toolCallId} ${describeEvent(event.event)}`;
  }
}

describe('streamed runs', () => {
  test('events come in order: agent, raw model events, then the items of each turn', async () => {
    const { add } = adder();
    const model = new MockModel([MockModel.toolCall('add', { a: 1, b: 2 }), MockModel.text('It is 3.')], {
      chunkSize: 3,
    });
    const result = await run(new Agent({ name: 'Calc', tools: [add], model }), 'sum', { stream: true });
    const seen: string[] = [];
    for await (const event of result) seen.push(describeEvent(event));
    expect(seen).toEqual([
      'agent Calc',
      'raw response_started',
      'raw response_done',
      'item tool_called',
      'item tool_output',
      'raw response_started',
      'delta It ',
      'delta is ',
      'delta 3.',
      'raw response_done',
      'item message_output_created',
    ]);
    await result.completed;
    expect(result.isComplete).toBe(true);
    expect(result.finalOutput).toBe('It is 3.');
  });

  test('toTextStream yields the text deltas', async () => {
    const model = new MockModel([MockModel.text('Hello there, friend.')]);
    const result = await run(new Agent({ name: 'A', model }), 'hi', { stream: true });
    const chunks: string[] = [];
    for await (const chunk of result.toTextStream()) chunks.push(chunk);
    expect(chunks).toEqual(['Hell', 'o th', 'ere,', ' fri', 'end.']);
  });

  test('each event is delivered once: a later iteration continues where the last one stopped', async () => {
    const model = new MockModel([MockModel.text('ab')], { chunkSize: 1 });
    const result = await run(new Agent({ name: 'A', model }), 'hi', { stream: true });
    const first: string[] = [];
    for await (const event of result) {
      first.push(describeEvent(event));
      if (first.length === 2) break;
    }
    const rest: string[] = [];
    for await (const event of result) rest.push(describeEvent(event));
    expect(first).toEqual(['agent A', 'raw response_started']);
    expect(rest).toEqual(['delta a', 'delta b', 'raw response_done', 'item message_output_created']);
    const late: string[] = [];
    for await (const event of result) late.push(describeEvent(event));
    expect(late).toEqual([]);
    await result.completed;
  });

  test('a second iteration while one is open is a UserError', async () => {
    const model = new MockModel([MockModel.text('ab')]);
    const result = await run(new Agent({ name: 'A', model }), 'hi', { stream: true });
    const open = result[Symbol.asyncIterator]();
    expect(() => result[Symbol.asyncIterator]()).toThrow(
      expect.objectContaining({ name: 'UserError', code: 'stream_already_iterated' }),
    );
    await open.return?.();
    await result.completed;
  });

  test('cancel() before the first iteration: the iteration yields no events', async () => {
    const { add, calls } = adder();
    const model = new MockModel([MockModel.toolCall('add', { a: 1, b: 1 }), MockModel.text('two')]);
    const result = await run(new Agent({ name: 'A', tools: [add], model }), 'go', { stream: true });
    result.cancel();
    const seen: string[] = [];
    for await (const event of result) seen.push(describeEvent(event));
    await result.completed;
    expect(seen).toEqual([]);
    expect(calls).toEqual([]);
    expect(result.state.status).toBe('aborted');
  });

  test('cancel() while iterating: nothing not yet yielded is yielded, now or by a later iteration', async () => {
    const { add, calls } = adder();
    const model = new MockModel([MockModel.toolCall('add', { a: 1, b: 1 }), MockModel.text('two')], {
      chunkSize: 1,
    });
    const result = await run(new Agent({ name: 'A', tools: [add], model }), 'go', { stream: true });
    const seen: string[] = [];
    for await (const event of result) {
      seen.push(describeEvent(event));
      if (event.type === 'raw_model_event' && event.data.type === 'response_started') result.cancel();
    }
    const after: string[] = [];
    for await (const event of result) after.push(describeEvent(event));
    await result.completed;
    expect(seen).toEqual(['agent A', 'raw response_started']);
    expect(after).toEqual([]);
    expect(calls).toEqual([]);
  });

  test('cancel() after the run settled still delivers nothing not yet yielded; the result stands', async () => {
    const model = new MockModel([MockModel.text('two')]);
    const result = await run(new Agent({ name: 'A', model }), 'go', { stream: true });
    await result.completed;
    result.cancel();
    const seen: RunStreamEvent<unknown>[] = [];
    for await (const event of result) seen.push(event);
    expect(seen).toEqual([]);
    expect(result.cancelled).toBeUndefined();
    expect(result.finalOutput).toBe('two');
  });

  test('a terminal error is thrown by the iteration after the queued events, and rejects completed', async () => {
    const { add } = adder();
    const model = new MockModel([
      MockModel.toolCall('add', { a: 1, b: 1 }),
      MockModel.toolCall('add', { a: 2, b: 2 }),
    ]);
    const result = await run(new Agent({ name: 'A', tools: [add], model }), 'loop', {
      stream: true,
      maxTurns: 1,
    });
    const seen: string[] = [];
    let thrown: unknown;
    try {
      for await (const event of result) seen.push(describeEvent(event));
    } catch (error) {
      thrown = error;
    }
    expect(seen.slice(-2)).toEqual(['item tool_called', 'item tool_output']);
    expect(thrown).toBeInstanceOf(MaxTurnsExceededError);
    await expect(result.completed).rejects.toBe(thrown);
    // toTextStream ends the same way.
    await expect(
      (async () => {
        for await (const _ of result.toTextStream()) {
          // drain
        }
      })(),
    ).rejects.toBe(thrown);
  });

  test('next() called again before the last one settled gets the following event; surplus calls end done', async () => {
    const model = new MockModel([MockModel.text('ab')], { chunkSize: 1 });
    const result = await run(new Agent({ name: 'A', model }), 'hi', { stream: true });
    const iterator = result[Symbol.asyncIterator]();
    const settled = await Promise.all(Array.from({ length: 8 }, () => iterator.next()));
    expect(settled.map((step) => (step.done ? 'done' : describeEvent(step.value)))).toEqual([
      'agent A',
      'raw response_started',
      'delta a',
      'delta b',
      'raw response_done',
      'item message_output_created',
      'done',
      'done',
    ]);
    await result.completed;
  });

  test('with next() calls waiting when the run fails, the first gets the error and the others end done', async () => {
    const clock = new ManualClock();
    const failure = new Error('the model went away');
    const model = new MockModel([MockModel.delay(10, MockModel.error(failure))], { clock });
    const result = await run(new Agent({ name: 'A', model }), 'hi', { stream: true });
    const iterator = result[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done ? 'done' : describeEvent(first.value)).toBe('agent A');
    const waiting = Promise.allSettled([iterator.next(), iterator.next()]);
    await clock.advance(10);
    expect(await waiting).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'fulfilled', value: { done: true, value: undefined } },
    ]);
    await expect(result.completed).rejects.toBe(failure);
  });

  test('breaking out of the iteration does not stop the run; completed is the cleanup boundary', async () => {
    const { add, calls } = adder();
    const model = new MockModel([MockModel.toolCall('add', { a: 1, b: 1 }), MockModel.text('two')]);
    const result = await run(new Agent({ name: 'A', tools: [add], model }), 'go', { stream: true });
    for await (const event of result) {
      if (event.type === 'agent_updated') break;
    }
    await result.completed;
    expect(calls).toHaveLength(1);
    expect(result.finalOutput).toBe('two');
  });

  test("cancel('after_turn') lets the turn finish, persists it, and the state resumes from there", async () => {
    const clock = new ManualClock();
    const log: string[] = [];
    const slow = tool({
      name: 'slow',
      description: 'slow',
      parameters: z.object({}),
      execute: async (_input, { signal }) => {
        await delay(clock, 100, signal);
        log.push('slow finished');
        return 'ok';
      },
    });
    const model = new MockModel([MockModel.toolCall('slow'), MockModel.text('after resume')]);
    const session = new MemorySession();
    const agent = new Agent({ name: 'A', tools: [slow], model });
    const runner = new Runner({ clock });
    const result = await runner.run(agent, 'go', { stream: true, session });
    const names: string[] = [];
    const drained = (async () => {
      for await (const event of result) {
        names.push(describeEvent(event));
        if (event.type === 'run_item' && event.name === 'tool_called') result.cancel('after_turn');
      }
    })();
    await flushMicrotasks();
    expect(result.cancelled).toBe('after_turn');
    expect(log).toEqual([]);
    await clock.advance(100);
    await drained;
    await result.completed;
    expect(log).toEqual(['slow finished']);
    expect(names.at(-1)).toBe('item tool_output');
    expect(model.callCount).toBe(1);
    expect(result.finalOutput).toBeUndefined();
    expect(result.state.status).toBe('in_progress');
    expect(result.state.currentTurn).toBe(1);
    expect(result.newItems.map((item) => item.type)).toEqual(['tool_call_item', 'tool_call_output_item']);
    expect((await session.getItems()).map((item) => item.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
    ]);

    const resumed = await runner.run(agent, result.state, { session });
    expect(resumed.finalOutput).toBe('after resume');
    expect(resumed.state.currentTurn).toBe(2);
    expect(model.requests[1]?.input.at(-1)).toMatchObject({ type: 'function_call_output', output: 'ok' });
    expect((await session.getItems()).map((item) => item.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'message',
    ]);
  });

  test("cancel('immediate') aborts the model call, awaits it, and ends the stream without error", async () => {
    const clock = new ManualClock();
    const model = new MockModel([MockModel.delay(5_000, MockModel.text('never'))], { clock });
    const agent = new Agent({ name: 'A', model });
    const result = await run(agent, 'hi', { stream: true });
    await flushMicrotasks();
    expect(model.calls[0]?.status).toBe('pending');
    result.cancel('immediate');
    const events: RunStreamEvent<unknown>[] = [];
    for await (const event of result) events.push(event);
    await expect(result.completed).resolves.toBeUndefined();
    expect(result.cancelled).toBe('immediate');
    expect(model.abortedCalls).toBe(1);
    expect(clock.pendingTimers).toBe(0);
    expect(result.state.status).toBe('aborted');
    expect(result.finalOutput).toBeUndefined();
    await expect(run(agent, result.state)).rejects.toMatchObject({ code: 'run_state_not_resumable' });
  });

  test('a model stream that ends without response_done is a ModelBehaviorError', async () => {
    const truncated: Model = {
      specificationVersion: MODEL_SPECIFICATION_VERSION,
      provider: 'truncated',
      capabilities: { streaming: true, tools: false, structuredOutput: false, parallelToolCalls: false },
      getResponse: async () => ({
        output: [],
        usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      }),
      async *streamResponse() {
        yield { type: 'text_delta', delta: 'half an ans' };
      },
    };
    const result = await run(new Agent({ name: 'A', model: truncated }), 'hi', { stream: true });
    await expect(result.completed).rejects.toThrow(ModelBehaviorError);
    await expect(result.completed).rejects.toThrow(/truncated model's stream ended without a response_done/);
  });

  test('result fields are live while the run streams', async () => {
    const { add } = adder();
    const model = new MockModel([MockModel.toolCall('add', { a: 1, b: 1 }), MockModel.text('2')]);
    const result = await run(new Agent({ name: 'A', tools: [add], model }), 'go', { stream: true });
    const counts: number[] = [];
    for await (const event of result) if (event.type === 'run_item') counts.push(result.newItems.length);
    expect(counts).toEqual([1, 2, 3]);
  });
});
