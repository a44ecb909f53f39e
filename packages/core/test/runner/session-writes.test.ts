import {
  type AddItemsOptions,
  Agent,
  type ConversationItem,
  delay,
  MemorySession,
  Runner,
  RunState,
  run,
  tool,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

function slowTool(name: string, clock: ManualClock, ms: number) {
  return tool({
    name,
    description: name,
    parameters: z.object({}),
    execute: async (_input, { signal }) => {
      await delay(clock, ms, signal);
      return `${name} done`;
    },
  });
}

function summary(items: ConversationItem[]): string[] {
  return items.map((item) =>
    item.type === 'message'
      ? `${item.role}: ${String(item.content)}`
      : `${item.type} ${'callId' in item ? item.callId : item.id}`,
  );
}

describe('MemorySession operation ids', () => {
  test('a write retried with the same operation id is applied once; another id is applied', async () => {
    const session = new MemorySession();
    const item: ConversationItem = { type: 'message', role: 'user', content: 'hi' };
    await session.addItems([item], { operationId: 'op-1' });
    await session.addItems([item], { operationId: 'op-1' });
    await session.addItems([item], { operationId: 'op-2' });
    await session.addItems([item]);
    expect(await session.getItems()).toHaveLength(3);
  });

  test('items are copied in and out: changing them later does not change the store', async () => {
    const item = { type: 'message' as const, role: 'user' as const, content: 'hi' };
    const session = new MemorySession();
    await session.addItems([item]);
    item.content = 'changed';
    const [stored] = await session.getItems();
    expect(stored).toEqual({ type: 'message', role: 'user', content: 'hi' });
    (stored as { content: string }).content = 'again';
    expect(await session.getItems()).toEqual([{ type: 'message', role: 'user', content: 'hi' }]);
  });
});

describe('a streamed run writes to its session as tools complete', () => {
  test('a completed tool call is in the session while the run goes on; the final message at the end', async () => {
    const clock = new ManualClock();
    const session = new MemorySession();
    const model = new MockModel([
      MockModel.toolCall('fast'),
      MockModel.toolCall('slow'),
      MockModel.text('All done.'),
    ]);
    const agent = new Agent({
      name: 'A',
      tools: [slowTool('fast', clock, 10), slowTool('slow', clock, 1_000)],
      model,
    });
    const result = await new Runner({ clock }).run(agent, 'go', { stream: true, session });
    const drained = (async () => {
      for await (const _event of result) {
        // drain
      }
    })();
    await flushMicrotasks();
    expect(await session.getItems()).toEqual([]);
    await clock.advance(10);
    await flushMicrotasks();
    expect(summary(await session.getItems())).toEqual([
      'user: go',
      'function_call call_1',
      'function_call_output call_1',
    ]);
    await clock.advance(1_000);
    await drained;
    await result.completed;
    expect(summary(await session.getItems())).toEqual([
      'user: go',
      'function_call call_1',
      'function_call_output call_1',
      'function_call call_2',
      'function_call_output call_2',
      'assistant: All done.',
    ]);
  });

  test('parallel calls are written only once every call of the batch has its output', async () => {
    const clock = new ManualClock();
    const session = new MemorySession();
    const model = new MockModel([
      MockModel.turn(MockModel.toolCall('slow'), MockModel.toolCall('fast')),
      MockModel.text('ok'),
    ]);
    const agent = new Agent({
      name: 'A',
      tools: [slowTool('slow', clock, 100), slowTool('fast', clock, 10)],
      model,
    });
    const result = await new Runner({ clock }).run(agent, 'go', { stream: true, session });
    const drained = (async () => {
      for await (const _event of result) {
        // drain
      }
    })();
    await flushMicrotasks();
    await clock.advance(10);
    await flushMicrotasks();
    // The fast tool finished, the slow one has not: an output without its sibling call would be a broken history.
    expect(await session.getItems()).toEqual([]);
    await clock.advance(100);
    await drained;
    expect(summary(await session.getItems())).toEqual([
      'user: go',
      'function_call call_1',
      'function_call call_2',
      'function_call_output call_1',
      'function_call_output call_2',
      'assistant: ok',
    ]);
  });

  test('a write whose reply was lost is retried with the same operation id and lands once', async () => {
    const clock = new ManualClock();
    const inner = new MemorySession();
    const ids: (string | undefined)[] = [];
    let failNext = true;
    const lossy = {
      getItems: (limit?: number) => inner.getItems(limit),
      popItem: () => inner.popItem(),
      clearSession: () => inner.clearSession(),
      async addItems(items: ConversationItem[], options?: AddItemsOptions) {
        ids.push(options?.operationId);
        await inner.addItems(items, options);
        if (failNext) {
          failNext = false;
          throw new Error('connection reset before the reply');
        }
      },
    };
    const model = new MockModel([MockModel.toolCall('fast'), MockModel.text('ok')]);
    const agent = new Agent({ name: 'A', tools: [slowTool('fast', clock, 10)], model });
    const result = await new Runner({ clock }).run(agent, 'go', { stream: true, session: lossy });
    const drained = (async () => {
      for await (const _event of result) {
        // drain
      }
    })();
    await flushMicrotasks();
    await clock.advance(10);
    await drained;
    await result.completed;
    expect(ids).toHaveLength(3);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(summary(await inner.getItems())).toEqual([
      'user: go',
      'function_call call_1',
      'function_call_output call_1',
      'assistant: ok',
    ]);
  });
});

describe('a cancelled run writes what completed', () => {
  test('aborted while a second tool runs: the first call and its output are kept, the running one is not', async () => {
    for (const stream of [false, true]) {
      const clock = new ManualClock();
      const session = new MemorySession();
      const controller = new AbortController();
      const model = new MockModel([
        MockModel.toolCall('fast'),
        MockModel.toolCall('slow'),
        MockModel.text('x'),
      ]);
      const agent = new Agent({
        name: 'A',
        tools: [slowTool('fast', clock, 10), slowTool('slow', clock, 1_000)],
        model,
      });
      const outcome = new Runner({ clock })
        .run(agent, 'go', {
          session,
          signal: controller.signal,
          ...(stream ? { stream: true as const } : {}),
        })
        .then(async (result) => {
          if ('completed' in result) {
            for await (const _event of result) {
              // drain
            }
            await result.completed;
          }
        })
        .catch(() => undefined);
      await flushMicrotasks();
      await clock.advance(10);
      await flushMicrotasks();
      controller.abort(new Error('caller hung up'));
      await outcome;
      expect(summary(await session.getItems())).toEqual([
        'user: go',
        'function_call call_1',
        'function_call_output call_1',
      ]);
    }
  });

  test('a saved state resumed by run() continues the same writes without repeating items', async () => {
    const session = new MemorySession();
    const wipe = tool({
      name: 'wipe',
      description: 'wipe',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'wiped',
    });
    const agent = new Agent({
      name: 'A',
      tools: [wipe],
      model: new MockModel([MockModel.toolCall('wipe'), MockModel.text('Done.')]),
    });
    const first = await run(agent, 'wipe it', { session });
    const restored = RunState.fromString(agent, first.state.toString());
    restored.approve(restored.getInterruptions()[0]!);
    await run(agent, restored, { session });
    expect(summary(await session.getItems())).toEqual([
      'user: wipe it',
      'function_call call_1',
      'function_call_output call_1',
      'assistant: Done.',
    ]);
  });
});
