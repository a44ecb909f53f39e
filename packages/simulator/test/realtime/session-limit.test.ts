import { describe, expect, test } from 'vitest';
import { connected } from './helpers.js';

/**
 * The service states its session limit as `expires_at` (Unix seconds) on every session object. The adapter
 * reports the limit it opened with as `expiresAt`, and a limit a later `session.updated` moves as a
 * `session_expiring` event (epoch milliseconds).
 */
describe('session limit', () => {
  test('a session.updated that moves expires_at: session_expiring with the new limit; the same limit again: nothing', async () => {
    const { connection, log, server } = await connected();
    const opened = server.session.expires_at as number;
    expect(connection.expiresAt).toBe(opened * 1000);

    const later = opened + 600;
    server.send({ type: 'session.updated', session: { ...server.session, expires_at: later } });
    expect(await log.waitFor('session_expiring')).toEqual({
      type: 'session_expiring',
      expiresAt: later * 1000,
    });
    expect(connection.expiresAt).toBe(later * 1000);

    server.send({ type: 'session.updated', session: { ...server.session, expires_at: later } });
    // A marker after it: everything before it was handled.
    server.send({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code: 'marker',
        message: 'marker',
        param: null,
        event_id: null,
      },
    });
    await log.waitFor((e) => e.type === 'error' && e.code === 'marker');
    expect(log.ofType('session_expiring')).toHaveLength(1);
  });

  test('session.created and the confirmation of the connect configuration announce nothing (expiresAt says it)', async () => {
    const { connection, log, server } = await connected();
    connection.send({ type: 'updateSession', config: { instructions: 'Be brief.' } });
    await server.waitForServerEvent((e) => e.type === 'session.updated', 2);
    server.send({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code: 'marker',
        message: 'marker',
        param: null,
        event_id: null,
      },
    });
    await log.waitFor((e) => e.type === 'error' && e.code === 'marker');
    expect(log.ofType('session_expiring')).toEqual([]);
    expect(connection.expiresAt).toBe((server.session.expires_at as number) * 1000);
  });
});
