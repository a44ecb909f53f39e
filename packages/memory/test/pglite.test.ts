import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { storeSession } from '../src/index.js';
import { openPGliteStore } from '../src/pglite/index.js';

describe('PGliteStore', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  test('persists to its directory: a store opened later on the same directory has the items', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-pglite-'));
    dirs.push(dir);
    const first = await openPGliteStore({ dataDir: dir });
    await storeSession(first, 'call-1').addItems(
      [{ type: 'message', role: 'user', content: 'remember me' }],
      {
        operationId: 'w1',
      },
    );
    await first.close();
    await first.close();
    await expect(first.getItems('call-1')).rejects.toMatchObject({ code: 'store_closed' });

    const second = await openPGliteStore({ dataDir: dir });
    const session = storeSession(second, 'call-1');
    await session.addItems([{ type: 'message', role: 'user', content: 'remember me' }], {
      operationId: 'w1',
    });
    expect(await session.getItems()).toEqual([{ type: 'message', role: 'user', content: 'remember me' }]);
    await second.close();
  });

  test('an empty session id is refused with a clear error', async () => {
    const store = await openPGliteStore({ dataDir: 'memory://' });
    expect(() => storeSession(store, '')).toThrow(/sessionId must be a non-empty string/);
    await expect(store.addItems('', [])).rejects.toMatchObject({ code: 'invalid_id' });
    await store.close();
  });
});
