import { Agent, RealtimeSession, tool } from '@parley/core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { modelFor, sent, simulator } from './helpers.js';

describe('RealtimeSession over OpenAIRealtimeModel and the simulator', () => {
  test('parallel tool calls: both outputs go out, then exactly one response.create', async () => {
    const sim = await simulator();
    const calls: string[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Look something up',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => {
        calls.push(q);
        return `result for ${q}`;
      },
    });
    sim.script(
      [
        { type: 'function_call', name: 'lookup', arguments: { q: 'a' } },
        { type: 'function_call', name: 'lookup', arguments: { q: 'b' } },
      ],
      (turn) => `Done: ${turn.toolOutputs.map((t) => t.output).join(', ')}`,
    );
    const session = new RealtimeSession(
      new Agent({ name: 'Helper', instructions: 'Help.', tools: [lookup] }),
      {
        model: modelFor(sim),
        config: { outputModalities: ['text'] },
      },
    );
    await session.connect();
    const server = await sim.waitForConnection();
    expect(sent(server, 'session.update')[0]?.session).toMatchObject({
      type: 'realtime',
      instructions: 'Help.',
      output_modalities: ['text'],
      tools: [{ type: 'function', name: 'lookup', description: 'Look something up' }],
    });
    session.sendMessage('look up a and b');
    await server.waitForClientEvent('response.create', 2);
    await server.waitForServerEvent('response.done', 2);
    const types = server.clientEvents.map((e) => {
      const event = e as { type: string; item?: { type: string } };
      return event.item ? `${event.type}:${event.item.type}` : event.type;
    });
    const firstCreate = types.indexOf('response.create');
    expect(types.slice(firstCreate)).toEqual([
      'response.create',
      'conversation.item.create:function_call_output',
      'conversation.item.create:function_call_output',
      'response.create',
    ]);
    expect(calls.sort()).toEqual(['a', 'b']);
    const lastDone = server.serverEvents.filter((e) => e.type === 'response.done').at(-1);
    expect(lastDone?.response).toMatchObject({
      output: [{ content: [{ type: 'output_text', text: 'Done: result for a, result for b' }] }],
    });
    await session.close();
    await sim.waitForIdle();
  });
});
