import { EventRecorder } from '@parley/conformance';
import { Agent, ConnectionCloseError, RealtimeSession } from '@parley/core';
import { MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';

const agent = new Agent({ name: 'Concierge', instructions: 'Help the guest.' });

describe('close() whose provider close fails', () => {
  test('rejects with a typed error; the next close() closes the connection again and resolves; a third is a no-op', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model });
    const log = new EventRecorder(session);
    await session.connect();
    const connection = model.connection;
    connection.failNextClose(new Error('socket stuck'));

    const first = await session.close().catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ConnectionCloseError);
    expect((first as ConnectionCloseError).code).toBe('connection_close_failed');
    expect((first as ConnectionCloseError).message).toContain('Call close() again');
    expect(connection.closeCalls).toBe(1);
    expect(connection.status).toBe('open');
    expect(session.status).toBe('closed');
    expect(log.of('error').map((e) => e.code)).toEqual(['connection_close_failed']);

    await session.close();
    expect(connection.closeCalls).toBe(2);
    expect(connection.status).toBe('closed');

    await session.close();
    expect(connection.closeCalls).toBe(2);
  });

  test('a close() that fails again rejects again, and the one after retries once more', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model });
    await session.connect();
    const connection = model.connection;
    connection.failNextClose();
    await expect(session.close()).rejects.toBeInstanceOf(ConnectionCloseError);
    connection.failNextClose();
    await expect(session.close()).rejects.toBeInstanceOf(ConnectionCloseError);
    expect(connection.closeCalls).toBe(2);
    await session.close();
    expect(connection.closeCalls).toBe(3);
    expect(connection.status).toBe('closed');
  });

  test('concurrent close() calls share one attempt', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model });
    await session.connect();
    model.connection.failNextClose();
    const results = await Promise.allSettled([session.close(), session.close()]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(model.connection.closeCalls).toBe(1);
  });
});
