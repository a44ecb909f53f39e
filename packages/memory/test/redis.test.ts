import { Redis } from 'ioredis';
import { describe, expect, inject, test } from 'vitest';
import { openRedisStore } from '../src/redis/index.js';

const url = inject('redisUrl');
const skip = url ? undefined : inject('redisSkip');

describe.skipIf(skip !== undefined)(`RedisStore on a real server${skip ? ` (skipped: ${skip})` : ''}`, () => {
  test('ttlSeconds: a session and its operation ids expire that long after the last write', async () => {
    const keyPrefix = `ttl:${globalThis.crypto.randomUUID()}:`;
    const store = await openRedisStore({ url: url as string, keyPrefix, ttlSeconds: 120 });
    const client = new Redis(url as string);
    try {
      await store.addItems('s', [{ type: 'message', role: 'user', content: 'x' }], { operationId: 'op' });
      const keys = (await client.keys(`${keyPrefix}*`)).sort();
      expect(keys).toEqual([`${keyPrefix}session:{s}:items`, `${keyPrefix}session:{s}:operations`]);
      for (const key of keys) {
        const ttl = await client.ttl(key);
        expect(ttl).toBeGreaterThan(100);
        expect(ttl).toBeLessThanOrEqual(120);
      }
      const plain = await openRedisStore({ url: url as string, keyPrefix: `${keyPrefix}plain:` });
      await plain.addItems('s', [{ type: 'message', role: 'user', content: 'x' }]);
      expect(await client.ttl(`${keyPrefix}plain:session:{s}:items`)).toBe(-1);
      await plain.close();
    } finally {
      client.disconnect();
      await store.close();
    }
  });

  test('a client passed in is not closed by the store; invalid ttlSeconds is refused', async () => {
    const client = new Redis(url as string);
    try {
      const store = await openRedisStore({ client });
      await store.close();
      expect(await client.ping()).toBe('PONG');
      await expect(openRedisStore({ client, ttlSeconds: -1 })).rejects.toMatchObject({
        code: 'invalid_option',
      });
    } finally {
      client.disconnect();
    }
  });
});
