import { Agent, run, tool } from '@parley/core';
import {
  encryptedStore,
  InMemoryData,
  InMemoryStore,
  MemoryStoreError,
  PausedRuns,
  redactedStore,
  storeSession,
} from '@parley/memory';
import { describeStoreConformance } from '@parley/memory/testing';
import { MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const KEY_A = { id: 'a', key: new Uint8Array(32).fill(7) };
const KEY_B = { id: 'b', key: btoa(String.fromCharCode(...new Uint8Array(32).fill(9))) };

/** What the store below holds, as text: what an attacker with the database sees. */
async function rawText(data: InMemoryData, sessionId: string): Promise<string> {
  return JSON.stringify(await new InMemoryStore(data).getItems(sessionId));
}

// The suite opens several stores on one database (concurrent writers, a restart): they share one InMemoryData.
const shared = new InMemoryData();
describeStoreConformance('encryptedStore over InMemoryStore', {
  open: async () => encryptedStore(new InMemoryStore(shared), { keys: [KEY_A] }),
});

describe('encryptedStore', () => {
  test('a run through it: the store below holds envelopes only; reading gives the conversation back', async () => {
    const data = new InMemoryData();
    const store = encryptedStore(new InMemoryStore(data), { keys: [KEY_A] });
    const memory = storeSession(store, 'caller:1');
    const agent = new Agent({
      name: 'A',
      model: new MockModel([MockModel.text('Your card 4242 is blocked.')]),
    });
    await run(agent, 'My card 4242 is lost', { session: memory });
    const raw = await rawText(data, 'caller:1');
    expect(raw).not.toContain('4242');
    expect(raw).not.toContain('user');
    expect(raw).toContain('parley-enc-v1:a:');
    expect(await memory.getItems()).toEqual([
      { type: 'message', role: 'user', content: 'My card 4242 is lost' },
      expect.objectContaining({ type: 'message', role: 'assistant', content: 'Your card 4242 is blocked.' }),
    ]);
  });

  test('key rotation: a new key writes, the old one still reads; without the old key a typed error', async () => {
    const data = new InMemoryData();
    await storeSession(encryptedStore(new InMemoryStore(data), { keys: [KEY_A] }), 's').addItems([
      { type: 'message', role: 'user', content: 'old secret' },
    ]);
    const rotated = storeSession(encryptedStore(new InMemoryStore(data), { keys: [KEY_B, KEY_A] }), 's');
    await rotated.addItems([{ type: 'message', role: 'user', content: 'new secret' }]);
    expect((await rotated.getItems()).map((item) => item.type === 'message' && item.content)).toEqual([
      'old secret',
      'new secret',
    ]);
    expect(await rawText(data, 's')).toMatch(/parley-enc-v1:a:.*parley-enc-v1:b:/);
    const retired = storeSession(encryptedStore(new InMemoryStore(data), { keys: [KEY_B] }), 's');
    await expect(retired.getItems()).rejects.toMatchObject({ code: 'memory_key_unknown' });
  });

  test('a changed envelope or a wrong key is memory_decrypt_failed, not garbage; plaintext from before reads as is', async () => {
    const data = new InMemoryData();
    await new InMemoryStore(data).addItems('s', [{ type: 'message', role: 'user', content: 'from before' }]);
    await storeSession(encryptedStore(new InMemoryStore(data), { keys: [KEY_A] }), 's').addItems([
      { type: 'message', role: 'user', content: 'secret' },
    ]);
    const wrongKey = encryptedStore(new InMemoryStore(data), {
      keys: [{ id: 'a', key: new Uint8Array(32) }],
    });
    await expect(wrongKey.getItems('s')).rejects.toBeInstanceOf(MemoryStoreError);
    await expect(wrongKey.getItems('s')).rejects.toMatchObject({ code: 'memory_decrypt_failed' });
    const session = data.sessions.get('s');
    if (!session) throw new Error('no session');
    session.items[1] = (session.items[1] ?? '').replace(/:([A-Za-z0-9+/])([^:]*)"}$/, ':A$2"}');
    const right = encryptedStore(new InMemoryStore(data), { keys: [KEY_A] });
    await expect(right.getItems('s')).rejects.toMatchObject({ code: 'memory_decrypt_failed' });
    expect(await right.getItems('s', 0)).toEqual([]);
    expect((await new InMemoryStore(data).getItems('s', 2))[0]).toMatchObject({ content: 'from before' });
  });

  test('paused runs are encrypted too, and resume through it', async () => {
    const data = new InMemoryData();
    const store = encryptedStore(new InMemoryStore(data), { keys: [KEY_A] });
    const refunds: string[] = [];
    const refund = tool({
      name: 'refund',
      description: 'Refunds an order',
      parameters: z.object({ order: z.string() }),
      needsApproval: true,
      execute: ({ order }) => {
        refunds.push(order);
        return `refunded ${order}`;
      },
    });
    const model = new MockModel([MockModel.toolCall('refund', { order: 'A-4242' }), MockModel.text('Done.')]);
    const agent = new Agent({ name: 'A', tools: [refund], model });
    const paused = await run(agent, 'Refund order A-4242');
    await new PausedRuns(store).save('r1', paused.state);
    expect(JSON.stringify([...data.runs.values()])).not.toContain('A-4242');
    expect(JSON.stringify([...data.runs.values()])).toContain('parley-enc-v1:a:');
    const claimed = await new PausedRuns(store).claim('r1', agent);
    if (!claimed) throw new Error('the run was not claimed');
    for (const item of claimed.state.getInterruptions()) claimed.state.approve(item);
    const resumed = await run(agent, claimed.state);
    await claimed.finish(resumed.state);
    expect(resumed.finalOutput).toBe('Done.');
    expect(refunds).toEqual(['A-4242']);
    expect(data.runs.size).toBe(0);
  });

  test('bad keys fail before anything is written', () => {
    const store = new InMemoryStore();
    expect(() => encryptedStore(store, { keys: [] })).toThrow(/newest key first/);
    expect(() => encryptedStore(store, { keys: [{ id: 'a', key: new Uint8Array(16) }] })).toThrow(/32 bytes/);
    expect(() => encryptedStore(store, { keys: [KEY_A, KEY_A] })).toThrow(/twice/);
    expect(() => encryptedStore(store, { keys: [{ id: 'a:b', key: KEY_A.key }] })).toThrow(/key ids/);
  });
});

describe('redactedStore', () => {
  test('what the redactor removes never reaches the store; reads give what was kept', async () => {
    const data = new InMemoryData();
    const store = redactedStore(new InMemoryStore(data), (item) =>
      item.type === 'message' ? { ...item, content: item.content.replace(/\b\d{4}\b/g, '****') } : undefined,
    );
    const memory = storeSession(store, 'caller:2');
    const agent = new Agent({ name: 'A', model: new MockModel([MockModel.text('Card 4242 blocked.')]) });
    await run(agent, 'Block card 4242', { session: memory });
    expect(await rawText(data, 'caller:2')).not.toContain('4242');
    expect((await memory.getItems()).map((item) => item.type === 'message' && item.content)).toEqual([
      'Block card ****',
      'Card **** blocked.',
    ]);
    expect(() => redactedStore(new InMemoryStore(), 'mask' as never)).toThrow(/pass a function/);
  });
});
