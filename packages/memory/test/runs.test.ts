import { Agent, RealtimeSession, run, tool } from '@parley/core';
import { MockModel, MockRealtimeModel } from '@parley/mock';
import { afterAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type MemoryStore, PausedRuns, storeSession } from '../src/index.js';
import { allBackends } from './support/backends.js';

for (const backend of allBackends()) {
  describe.skipIf(backend.skip !== undefined)(
    `runs on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      const opened: MemoryStore[] = [];
      const open = async () => {
        const store = await backend.open();
        opened.push(store);
        return store;
      };
      afterAll(async () => {
        await Promise.all(opened.map((store) => store.close()));
      });

      test('a second run, through another store on the same data, sees the first', async () => {
        const id = `chat-${globalThis.crypto.randomUUID()}`;
        const model = new MockModel([MockModel.text('Hi Ada!'), MockModel.text('You are Ada.')]);
        const agent = new Agent({ name: 'Chat', model });
        await run(agent, 'I am Ada', { session: storeSession(await open(), id) });
        await run(agent, 'Who am I?', { session: storeSession(await open(), id) });
        expect(model.requests[1]?.input).toEqual([
          { type: 'message', role: 'user', content: 'I am Ada' },
          { type: 'message', role: 'assistant', content: 'Hi Ada!' },
          { type: 'message', role: 'user', content: 'Who am I?' },
        ]);
        expect(await storeSession(await open(), id).getItems()).toHaveLength(4);
      });

      test('a text agent and a voice agent share one session: each starts from what the other wrote', async () => {
        const id = `caller-${globalThis.crypto.randomUUID()}`;
        const text = new MockModel([
          MockModel.text('Noted, Ada.'),
          MockModel.text('You asked about your card.'),
        ]);
        const agent = new Agent({ name: 'Support', model: text });
        await run(agent, 'I am Ada', { session: storeSession(await open(), id) });

        const voice = new MockRealtimeModel();
        const call = new RealtimeSession(new Agent({ name: 'Voice' }), {
          model: voice,
          memory: storeSession(await open(), id),
          config: { outputModalities: ['text'] },
        });
        await call.connect();
        const replayed = voice.connection.commands.flatMap((command) =>
          command.type === 'createItem' && command.item.type === 'message'
            ? [command.item.content.map((part) => ('text' in part ? part.text : '')).join('')]
            : [],
        );
        expect(replayed).toEqual(['I am Ada', 'Noted, Ada.']);
        voice.respondWith('Your card is blocked.');
        call.sendMessage('Block my card');
        await new Promise<void>((resolve) => call.on('turn_done', () => resolve()));
        await call.close();

        await run(agent, 'What did I ask on the phone?', { session: storeSession(await open(), id) });
        expect(text.requests[1]?.input).toEqual([
          { type: 'message', role: 'user', content: 'I am Ada' },
          { type: 'message', role: 'assistant', content: 'Noted, Ada.' },
          expect.objectContaining({ type: 'message', role: 'user', content: 'Block my card' }),
          expect.objectContaining({ type: 'message', role: 'assistant', content: 'Your card is blocked.' }),
          { type: 'message', role: 'user', content: 'What did I ask on the phone?' },
        ]);
      });

      test('a paused approval saved by one process is resumed by one of two racing processes; the tool runs once', async () => {
        const runId = `approval-${globalThis.crypto.randomUUID()}`;
        const sessionId = `chat-${globalThis.crypto.randomUUID()}`;
        const refunds: string[] = [];
        // Each process builds the agent; its model answers what that process's run asks.
        const makeAgent = (script = [MockModel.toolCall('refund', { order: 'A-1' })]) =>
          new Agent({
            name: 'Support',
            tools: [
              tool({
                name: 'refund',
                description: 'refund an order',
                parameters: z.object({ order: z.string() }),
                needsApproval: true,
                execute: ({ order }) => {
                  refunds.push(order);
                  return `refunded ${order}`;
                },
              }),
            ],
            model: new MockModel(script),
          });
        const first = await run(makeAgent(), 'refund A-1', {
          session: storeSession(await open(), sessionId),
        });
        expect(first.interruptions).toHaveLength(1);
        await new PausedRuns(await open()).save(runId, first.state);

        // Two other processes: each has its own store connection and agent, and both try to resume.
        const resume = async () => {
          const agent = makeAgent([MockModel.text('Refunded.')]);
          const store = await open();
          const claimed = await new PausedRuns(store).claim(runId, agent);
          if (!claimed) return 'not claimed';
          for (const item of claimed.state.getInterruptions()) claimed.state.approve(item);
          const result = await run(agent, claimed.state, { session: storeSession(store, sessionId) });
          await claimed.finish(result.state);
          return result.finalOutput;
        };
        const outcomes = await Promise.all([resume(), resume()]);
        expect(outcomes.sort()).toEqual(['Refunded.', 'not claimed']);
        expect(refunds).toEqual(['A-1']);
        // Finished runs are removed: a late approver finds nothing to resume.
        expect(await new PausedRuns(await open()).claim(runId, makeAgent())).toBeUndefined();
        const history = await storeSession(await open(), sessionId).getItems();
        expect(history.map((item) => item.type)).toEqual([
          'message',
          'function_call',
          'function_call_output',
          'message',
        ]);
      });
    },
  );
}

describe('PausedRuns', () => {
  test('only a paused run can be saved; a bad lease is refused', async () => {
    const [backend] = allBackends();
    const store = await backend!.open();
    const agent = new Agent({ name: 'A', model: new MockModel([MockModel.text('done')]) });
    const result = await run(agent, 'hi');
    await expect(new PausedRuns(store).save('r', result.state)).rejects.toMatchObject({
      code: 'run_not_paused',
    });
    expect(() => new PausedRuns(store, { leaseMs: 0 })).toThrow(/leaseMs must be a positive number/);
  });

  test('a claim that lapsed cannot finish: claim_lost, and the new holder keeps the run', async () => {
    const [backend] = allBackends();
    const store = await backend!.open();
    let now = 1_000;
    const wipe = tool({
      name: 'wipe',
      description: 'wipe',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'wiped',
    });
    const agent = new Agent({ name: 'A', tools: [wipe], model: new MockModel([MockModel.toolCall('wipe')]) });
    const paused = await run(agent, 'wipe');
    const runs = new PausedRuns(store, { leaseMs: 100, now: () => now });
    await runs.save('r', paused.state);
    const slow = await runs.claim('r', agent);
    expect(await runs.claim('r', agent)).toBeUndefined();
    now = 1_200;
    const late = await runs.claim('r', agent);
    expect(late).toBeDefined();
    await expect(slow!.release()).rejects.toMatchObject({ code: 'claim_lost' });
    await late!.release();
    expect(await runs.claim('r', agent)).toBeDefined();
  });
});
