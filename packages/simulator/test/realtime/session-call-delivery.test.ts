import { Agent, RealtimeSession, tool } from '@parley/core';
import { createHold } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { modelFor, sent, simulator } from './helpers.js';

function lookupAgent(runs: string[]) {
  const lookup = tool({
    name: 'lookup',
    description: 'Looks a key up',
    parameters: z.object({ key: z.string() }),
    execute: ({ key }) => {
      runs.push(key);
      return `value of ${key}`;
    },
  });
  return new Agent({ name: 'Looker', tools: [lookup] });
}

describe('function calls over the OpenAI adapter', () => {
  test('a function call item without a response id is not dropped: it runs and is followed up', async () => {
    const sim = await simulator();
    const runs: string[] = [];
    const session = new RealtimeSession(lookupAgent(runs), {
      model: modelFor(sim),
      config: { outputModalities: ['text'] },
    });
    await session.connect();
    const server = await sim.waitForConnection();
    server.send({
      type: 'response.output_item.done',
      output_index: 0,
      item: {
        id: 'item_loose',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_loose',
        name: 'lookup',
        arguments: '{"key":"k"}',
      },
    });
    await server.waitForClientEvent('response.create');
    expect(runs).toEqual(['k']);
    const outputs = sent(server, 'conversation.item.create').map(
      (e) => e.item as { type: string; call_id?: string },
    );
    expect(outputs).toEqual([
      expect.objectContaining({ type: 'function_call_output', call_id: 'call_loose' }),
    ]);
    await session.close();
  });

  test.each([
    ['naming it by its event_id (the default, as the service does)', undefined],
    ['without its event_id', false],
  ] as const)(
    'the service refusing a colliding response.create %s releases the queue',
    async (_how, echoEventId) => {
      const sim = await simulator();
      const session = new RealtimeSession(new Agent({ name: 'Patient' }), {
        model: modelFor(sim),
        config: { outputModalities: ['text'] },
      });
      await session.connect();
      const server = await sim.waitForConnection();
      sim.refuseNextResponse({
        code: 'conversation_already_has_active_response',
        message: 'Conversation already has an active response in progress: resp_vad.',
        ...(echoEventId !== undefined && { echoEventId }),
      });
      const errors: string[] = [];
      session.on('error', (e) => errors.push(`${e.code}:${e.clientRequestId}`));
      const first = session.generateResponse();
      const second = session.generateResponse();
      await expect(first).rejects.toMatchObject({ code: 'response_refused' });
      await expect(second).resolves.toEqual(expect.any(String));
      const refusal = server.serverEvents.find((event) => event.type === 'error')?.error as {
        event_id: unknown;
      };
      expect(refusal.event_id).toBe(echoEventId === false ? null : first.clientRequestId);
      expect(sent(server, 'response.create')).toHaveLength(2);
      expect(errors).toEqual([`conversation_already_has_active_response:${first.clientRequestId}`]);
      await session.close();
    },
  );

  test('a collision the service reports while a reply streams is no refusal of the next request', async () => {
    const sim = await simulator();
    const session = new RealtimeSession(new Agent({ name: 'Patient' }), {
      model: modelFor(sim),
      config: { outputModalities: ['text'] },
    });
    await session.connect();
    const server = await sim.waitForConnection();
    const hold = createHold();
    sim.script([
      { type: 'hold', hold },
      { type: 'message', text: 'first' },
    ]);
    const first = session.generateResponse();
    await hold.reached;
    // Another client of the same conversation (or a VAD turn) collides: the service names no request.
    server.send({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code: 'conversation_already_has_active_response',
        message: 'Conversation already has an active response in progress.',
        param: null,
        event_id: null,
      },
    });
    hold.release();
    await expect(first).resolves.toEqual(expect.any(String));
    await session.close();
  });
});
