import { Agent, MemorySession, tool } from '@parley/core';
import { MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { bothWays } from './both-ways.js';

describe('MemorySession', () => {
  test('get, add, pop, clear', async () => {
    const session = new MemorySession([{ type: 'message', role: 'user', content: 'a' }]);
    await session.addItems([
      { type: 'message', role: 'assistant', content: 'b' },
      { type: 'message', role: 'user', content: 'c' },
    ]);
    expect((await session.getItems()).map((item) => item.type === 'message' && item.content)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect((await session.getItems(2)).map((item) => item.type === 'message' && item.content)).toEqual([
      'b',
      'c',
    ]);
    expect(await session.getItems(0)).toEqual([]);
    expect(await session.popItem()).toEqual({ type: 'message', role: 'user', content: 'c' });
    // getItems returns a copy.
    (await session.getItems()).length = 0;
    expect(await session.getItems()).toHaveLength(2);
    await session.clearSession();
    expect(await session.getItems()).toEqual([]);
    expect(await session.popItem()).toBeUndefined();
  });
});

describe('runs with a session', () => {
  test('loads the history before the first turn and saves the input and new items after', async () => {
    await bothWays(async (h) => {
      const session = new MemorySession();
      const model = h.model([MockModel.text('Hi Ada!'), MockModel.text('You are Ada.')]);
      const agent = new Agent({ name: 'A', model });
      await h.run(agent, 'I am Ada', { session });
      expect(await session.getItems()).toEqual([
        { type: 'message', role: 'user', content: 'I am Ada' },
        { type: 'message', role: 'assistant', content: 'Hi Ada!' },
      ]);
      const second = await h.run(agent, 'Who am I?', { session });
      expect(model.requests[1]?.input).toEqual([
        { type: 'message', role: 'user', content: 'I am Ada' },
        { type: 'message', role: 'assistant', content: 'Hi Ada!' },
        { type: 'message', role: 'user', content: 'Who am I?' },
      ]);
      // history is this run's input and new items; the session holds the whole conversation.
      expect(second.history).toEqual([
        { type: 'message', role: 'user', content: 'Who am I?' },
        { type: 'message', role: 'assistant', content: 'You are Ada.' },
      ]);
      expect(await session.getItems()).toHaveLength(4);
    });
  });

  test('an interrupted run saves what it has; the resumed run adds only the rest', async () => {
    await bothWays(async (h) => {
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
        model: h.model([MockModel.toolCall('wipe'), MockModel.text('Done.')]),
      });
      const first = await h.run(agent, 'wipe it', { session });
      expect((await session.getItems()).map((item) => item.type)).toEqual(['message', 'function_call']);
      first.state.approve(first.interruptions[0]!);
      await h.run(agent, first.state, { session });
      expect(await session.getItems()).toEqual([
        { type: 'message', role: 'user', content: 'wipe it' },
        { type: 'function_call', callId: 'call_1', name: 'wipe', arguments: '{}' },
        { type: 'function_call_output', callId: 'call_1', output: 'wiped' },
        { type: 'message', role: 'assistant', content: 'Done.' },
      ]);
    });
  });

  test('a failed run saves nothing', async () => {
    await bothWays(async (h) => {
      const session = new MemorySession();
      const agent = new Agent({ name: 'A', model: h.model([MockModel.error(new Error('provider down'))]) });
      await expect(h.run(agent, 'hello', { session })).rejects.toThrow('provider down');
      expect(await session.getItems()).toEqual([]);
    });
  });
});
