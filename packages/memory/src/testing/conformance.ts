import type { ConversationItem } from '@parley/core';
import { afterAll, describe, expect, test } from 'vitest';
import type { MemoryStore } from '../store.js';

/** How the conformance suite reaches a store under test. */
export interface StoreConformanceOptions {
  /**
   * Opens a new store on the same data each call (a new connection, as another process would): the
   * suite opens several to check concurrent writers and a restart between writes. Each is closed by the suite.
   */
  open(): Promise<MemoryStore>;
  /** Skip the whole suite with this reason (e.g. the server is not installed). */
  skip?: string;
}

const user = (content: string): ConversationItem => ({ type: 'message', role: 'user', content });
const texts = (items: ConversationItem[]) =>
  items.map((item) => (item.type === 'message' ? item.content : item.type));

/**
 * The behaviour every {@link MemoryStore} must have, as a vitest suite: ordering and limits, idempotent
 * retries, concurrent writers, large and unicode items, missing sessions, a restart between writes, and
 * paused runs taken by one claimant. Call it at the top level of a test file:
 * `describeStoreConformance('my store', { open: () => openMyStore() })`.
 */
export function describeStoreConformance(name: string, options: StoreConformanceOptions): void {
  const opened: MemoryStore[] = [];
  const open = async () => {
    const store = await options.open();
    opened.push(store);
    return store;
  };
  const fresh = () => `conformance-${globalThis.crypto.randomUUID()}`;
  const suite = options.skip === undefined ? describe : describe.skip;

  suite(`${name}: store conformance${options.skip === undefined ? '' : ` (skipped: ${options.skip})`}`, () => {
    afterAll(async () => {
      await Promise.all(opened.map((store) => store.close()));
    });

    test('a session that does not exist has no items; pop and clear do nothing', async () => {
      const store = await open();
      const id = fresh();
      expect(await store.getItems(id)).toEqual([]);
      expect(await store.getItems(id, 3)).toEqual([]);
      expect(await store.popItem(id)).toBeUndefined();
      await store.clearSession(id);
      expect(await store.getItems(id)).toEqual([]);
    });

    test('items keep their order across writes; a limit returns the latest, oldest first', async () => {
      const store = await open();
      const id = fresh();
      await store.addItems(id, [user('1'), user('2')]);
      await store.addItems(id, [user('3')]);
      await store.addItems(id, []);
      await store.addItems(id, [user('4'), user('5'), user('6')]);
      expect(texts(await store.getItems(id))).toEqual(['1', '2', '3', '4', '5', '6']);
      expect(texts(await store.getItems(id, 2))).toEqual(['5', '6']);
      expect(texts(await store.getItems(id, 100))).toEqual(['1', '2', '3', '4', '5', '6']);
      expect(await store.getItems(id, 0)).toEqual([]);
      await expect(store.getItems(id, -1)).rejects.toMatchObject({ code: 'invalid_limit' });
    });

    test('pop removes the latest item; clear removes all; sessions are apart', async () => {
      const store = await open();
      const [a, b] = [fresh(), fresh()];
      await store.addItems(a, [user('a1'), user('a2')]);
      await store.addItems(b, [user('b1')]);
      expect(await store.popItem(a)).toEqual(user('a2'));
      expect(texts(await store.getItems(a))).toEqual(['a1']);
      await store.clearSession(a);
      expect(await store.getItems(a)).toEqual([]);
      expect(texts(await store.getItems(b))).toEqual(['b1']);
      await store.addItems(a, [user('again')]);
      expect(texts(await store.getItems(a))).toEqual(['again']);
    });

    test('a write retried with the same operation id lands once; ids are per session', async () => {
      const store = await open();
      const [a, b] = [fresh(), fresh()];
      await store.addItems(a, [user('x'), user('y')], { operationId: 'op-1' });
      await store.addItems(a, [user('x'), user('y')], { operationId: 'op-1' });
      await store.addItems(a, [user('z')], { operationId: 'op-2' });
      await store.addItems(b, [user('x')], { operationId: 'op-1' });
      expect(texts(await store.getItems(a))).toEqual(['x', 'y', 'z']);
      expect(texts(await store.getItems(b))).toEqual(['x']);
    });

    test('two concurrent writers: every batch lands once, whole and in one piece', async () => {
      const [first, second] = [await open(), await open()];
      const id = fresh();
      const batch = (writer: string, n: number) => [
        user(`${writer}${n}.1`),
        user(`${writer}${n}.2`),
        user(`${writer}${n}.3`),
      ];
      await Promise.all([
        ...Array.from({ length: 15 }, (_, n) => first.addItems(id, batch('a', n), { operationId: `a${n}` })),
        ...Array.from({ length: 15 }, (_, n) => second.addItems(id, batch('b', n), { operationId: `b${n}` })),
        // The same retried writes, racing the first attempts.
        ...Array.from({ length: 15 }, (_, n) => second.addItems(id, batch('a', n), { operationId: `a${n}` })),
      ]);
      const stored = texts(await first.getItems(id)) as string[];
      expect(stored).toHaveLength(90);
      for (let index = 0; index < stored.length; index += 3) {
        const prefix = stored[index]?.slice(0, -2);
        expect(stored.slice(index, index + 3)).toEqual([`${prefix}.1`, `${prefix}.2`, `${prefix}.3`]);
      }
      expect(new Set(stored).size).toBe(90);
    });

    test('large items (a long transcript, a big tool output) come back whole', async () => {
      const store = await open();
      const id = fresh();
      const transcript = 'word '.repeat(400_000);
      const output = JSON.stringify({
        rows: Array.from({ length: 20_000 }, (_, n) => ({ n, text: `row ${n}` })),
      });
      const items: ConversationItem[] = [
        { type: 'message', role: 'assistant', content: transcript },
        { type: 'function_call', callId: 'c1', name: 'query', arguments: '{}' },
        { type: 'function_call_output', callId: 'c1', output },
      ];
      await store.addItems(id, items);
      expect(await store.getItems(id)).toEqual(items);
      const many = Array.from({ length: 3_000 }, (_, n) => user(`m${n}`));
      await store.addItems(id, many);
      expect(await store.getItems(id, 3_000)).toEqual(many);
    });

    test('unicode, control characters and JSON-looking text come back exactly', async () => {
      const store = await open();
      const id = fresh();
      const samples = [
        'héllo wörld',
        '你好，世界',
        'مرحبا',
        '👩‍👩‍👧‍👦🎙️',
        'nul\u0000byte',
        'tab\tnew\nline',
        '{"a":1}',
        'quote \' " \\',
        '',
      ];
      await store.addItems(id, samples.map(user));
      expect(texts(await store.getItems(id))).toEqual(samples);
      await store.addItems(fresh(), [user('x')]);
      const odd = `odd session ${'ü'.repeat(3)} ${'🎧'}`;
      await store.addItems(odd, [user('in an odd session')]);
      expect(texts(await store.getItems(odd))).toEqual(['in an odd session']);
    });

    test('a restart between writes: what was written stays, a retried write lands once', async () => {
      const before = await open();
      const id = fresh();
      await before.addItems(id, [user('first')], { operationId: 'w1' });
      // The process dies here: the next write comes from another store on the same data.
      const after = await open();
      await after.addItems(id, [user('first')], { operationId: 'w1' });
      await after.addItems(id, [user('second')], { operationId: 'w2' });
      expect(texts(await after.getItems(id))).toEqual(['first', 'second']);
    });

    test('a paused run is taken by one claimant; finishing saves or removes it', async () => {
      const [first, second] = [await open(), await open()];
      const runId = fresh();
      expect(await first.claimRun(runId, { owner: 'a', leaseUntil: 2_000 }, 1_000)).toBeUndefined();
      await first.saveRun(runId, 'state-1');
      const claims = await Promise.all([
        first.claimRun(runId, { owner: 'a', leaseUntil: 2_000 }, 1_000),
        second.claimRun(runId, { owner: 'b', leaseUntil: 2_000 }, 1_000),
      ]);
      expect(claims.filter((claim) => claim === 'state-1')).toHaveLength(1);
      const winner = claims[0] === 'state-1' ? 'a' : 'b';
      const loser = winner === 'a' ? 'b' : 'a';
      expect(await first.finishRun(runId, loser, undefined)).toBe(false);
      expect(await second.finishRun(runId, winner, 'state-2')).toBe(true);
      expect(await first.claimRun(runId, { owner: 'c', leaseUntil: 3_000 }, 1_500)).toBe('state-2');
      // A lapsed lease lets another claimant in; the old holder can no longer finish.
      expect(await second.claimRun(runId, { owner: 'd', leaseUntil: 4_000 }, 2_999)).toBeUndefined();
      expect(await second.claimRun(runId, { owner: 'd', leaseUntil: 9_000 }, 3_001)).toBe('state-2');
      expect(await first.finishRun(runId, 'c', undefined)).toBe(false);
      expect(await first.finishRun(runId, 'd', undefined)).toBe(true);
      expect(await second.claimRun(runId, { owner: 'e', leaseUntil: 9_000 }, 3_002)).toBeUndefined();
    });

    test('a closed store refuses work with store_closed; close is idempotent', async () => {
      const store = await options.open();
      await store.close();
      await store.close();
      await expect(store.getItems(fresh())).rejects.toMatchObject({ code: 'store_closed' });
      await expect(store.addItems(fresh(), [user('x')])).rejects.toMatchObject({ code: 'store_closed' });
    });
  });
}
