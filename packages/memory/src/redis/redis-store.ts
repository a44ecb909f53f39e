import type { AddItemsOptions, ConversationItem } from '@parley/core';
import type { Redis, RedisOptions } from 'ioredis';
import { checkId, checkLimit, loadDriver, MemoryStoreError, storeClosed } from '../errors.js';
import type { MemoryStore, RunClaim } from '../store.js';

/** Options of {@link openRedisStore}. */
export type RedisStoreOptions = (
  | { client: Redis; url?: never }
  | { url?: string; client?: never; redis?: RedisOptions }
) & {
  /** Expire a session this many seconds after its last write (items and operation ids). Default: never. */
  ttlSeconds?: number;
  /** Prefix of every key. Default `parley:`. */
  keyPrefix?: string;
};

// One script per write: the operation check, the append and the expiry land together or not at all.
const ADD_ITEMS = `
if ARGV[1] ~= '' and redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
for i = 3, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
local ttl = tonumber(ARGV[2])
if ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  if ARGV[1] ~= '' then redis.call('EXPIRE', KEYS[2], ttl) end
end
return 1`;

const CLAIM_RUN = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return false end
local holder = redis.call('HGET', KEYS[1], 'until')
if holder and tonumber(holder) >= tonumber(ARGV[3]) then return false end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'until', ARGV[2])
return state`;

const FINISH_RUN = `
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[1], 'state', ARGV[3])
  redis.call('HDEL', KEYS[1], 'owner', 'until')
else
  redis.call('DEL', KEYS[1])
end
return 1`;

/**
 * A {@link MemoryStore} on Redis (`ioredis`): a list per session, written by one Lua script per batch so a
 * multi-item write (with its operation id) is atomic; optional expiry after the last write. Keys put a
 * session's list and its operation ids in one hash slot, so the store works on Redis Cluster too.
 */
export class RedisStore implements MemoryStore {
  readonly #client: Redis;
  readonly #owned: boolean;
  readonly #ttl: number;
  readonly #prefix: string;
  #closed: Promise<void> | undefined;

  constructor(client: Redis, owned: boolean, ttlSeconds: number, keyPrefix: string) {
    this.#client = client;
    this.#owned = owned;
    this.#ttl = ttlSeconds;
    this.#prefix = keyPrefix;
  }

  async getItems(sessionId: string, limit?: number): Promise<ConversationItem[]> {
    checkLimit(limit);
    this.#check('sessionId', sessionId);
    if (limit === 0) return [];
    const texts = await this.#client.lrange(this.#items(sessionId), limit === undefined ? 0 : -limit, -1);
    return texts.map((text) => JSON.parse(text) as ConversationItem);
  }

  async addItems(sessionId: string, items: ConversationItem[], options: AddItemsOptions = {}): Promise<void> {
    this.#check('sessionId', sessionId);
    const encoded = items.map((item) => JSON.stringify(item));
    if (encoded.length === 0 && options.operationId === undefined) return;
    await this.#client.eval(
      ADD_ITEMS,
      2,
      this.#items(sessionId),
      this.#operations(sessionId),
      options.operationId ?? '',
      String(this.#ttl),
      ...encoded,
    );
  }

  async popItem(sessionId: string): Promise<ConversationItem | undefined> {
    this.#check('sessionId', sessionId);
    const text = await this.#client.rpop(this.#items(sessionId));
    return text === null ? undefined : (JSON.parse(text) as ConversationItem);
  }

  async clearSession(sessionId: string): Promise<void> {
    this.#check('sessionId', sessionId);
    await this.#client.del(this.#items(sessionId));
  }

  async saveRun(runId: string, state: string): Promise<void> {
    this.#check('runId', runId);
    const key = this.#run(runId);
    await this.#client.multi().del(key).hset(key, 'state', state).exec();
  }

  async claimRun(runId: string, claim: RunClaim, now: number): Promise<string | undefined> {
    this.#check('runId', runId);
    const state = (await this.#client.eval(
      CLAIM_RUN,
      1,
      this.#run(runId),
      claim.owner,
      String(claim.leaseUntil),
      String(now),
    )) as string | null;
    return state ?? undefined;
  }

  async finishRun(runId: string, owner: string, state: string | undefined): Promise<boolean> {
    this.#check('runId', runId);
    const done = await this.#client.eval(
      FINISH_RUN,
      1,
      this.#run(runId),
      owner,
      state === undefined ? '0' : '1',
      state ?? '',
    );
    return done === 1;
  }

  close(): Promise<void> {
    this.#closed ??= this.#owned
      ? this.#client.quit().then(
          () => {},
          () => this.#client.disconnect(),
        )
      : Promise.resolve();
    return this.#closed;
  }

  #check(kind: 'sessionId' | 'runId', id: string): void {
    if (this.#closed) throw storeClosed('RedisStore');
    checkId(kind, id);
  }

  #items(sessionId: string): string {
    return `${this.#prefix}session:{${sessionId}}:items`;
  }

  #operations(sessionId: string): string {
    return `${this.#prefix}session:{${sessionId}}:operations`;
  }

  #run(runId: string): string {
    return `${this.#prefix}run:{${runId}}`;
  }
}

/** Opens a {@link RedisStore} on `url` (default `redis://127.0.0.1:6379`), or on a client you own. */
export async function openRedisStore(options: RedisStoreOptions = {}): Promise<RedisStore> {
  const ttl = options.ttlSeconds ?? 0;
  if (!(Number.isInteger(ttl) && ttl >= 0)) {
    throw new MemoryStoreError(
      'invalid_option',
      `ttlSeconds must be a non-negative integer, got ${String(options.ttlSeconds)}.`,
    );
  }
  const prefix = options.keyPrefix ?? 'parley:';
  if (options.client) return new RedisStore(options.client, false, ttl, prefix);
  const ioredis = await loadDriver('ioredis', () => import('ioredis'), 'RedisStore');
  const client = new ioredis.Redis(options.url ?? 'redis://127.0.0.1:6379', {
    lazyConnect: true,
    maxRetriesPerRequest: 2,
    ...options.redis,
  });
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw error;
  }
  return new RedisStore(client, true, ttl, prefix);
}
