import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { InMemoryData, InMemoryStore, type MemoryStore } from '../../src/index.js';
import { openPGliteStore } from '../../src/pglite/index.js';
import { openPostgresStore } from '../../src/postgres/index.js';
import { openRedisStore } from '../../src/redis/index.js';

/** One kind of store the tests run on; `skip` says why it cannot run here. */
export interface Backend {
  readonly name: string;
  readonly skip: string | undefined;
  /** A new store on this backend's shared data (a new connection, as another process would open). */
  open(): Promise<MemoryStore>;
}

const unique = () => globalThis.crypto.randomUUID().replaceAll('-', '');

/** A new, empty database on the shared test server; resolves to its URL. */
export async function createDatabase(serverUrl: string): Promise<string> {
  const name = `parley_${unique()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

export function inMemoryBackend(): Backend {
  const data = new InMemoryData();
  return { name: 'InMemoryStore', skip: undefined, open: async () => new InMemoryStore(data) };
}

/** PGlite in memory; every store shares one database (one PGlite serves one process). */
export function pgliteBackend(): Backend {
  const db = once(() => PGlite.create('memory://'));
  return { name: 'PGliteStore', skip: undefined, open: async () => openPGliteStore({ db: await db() }) };
}

export function postgresBackend(): Backend {
  const server = inject('postgresUrl');
  const database = once(() => createDatabase(server as string));
  return {
    name: 'PostgresStore',
    skip: server ? undefined : inject('postgresSkip'),
    open: async () => openPostgresStore({ connectionString: await database(), max: 4 }),
  };
}

export function redisBackend(options: { ttlSeconds?: number } = {}): Backend {
  const url = inject('redisUrl');
  const keyPrefix = `test:${unique()}:`;
  return {
    name: 'RedisStore',
    skip: url ? undefined : inject('redisSkip'),
    open: () => openRedisStore({ url: url as string, keyPrefix, ...options }),
  };
}

export function allBackends(): Backend[] {
  return [inMemoryBackend(), pgliteBackend(), postgresBackend(), redisBackend()];
}
