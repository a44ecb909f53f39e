import { Agent, RealtimeConnectError, SessionClosedError } from '@parley/core';
import { describe, expect, test } from 'vitest';
import { unitsOf } from './units-rig.js';

/** The one owner of the session's connection: connect, release on failure, close (idempotent), the end of one. */

const agent = new Agent({ name: 'Owner' });

describe('ConnectionLifecycle', () => {
  test('concurrent connects share one attempt and one connection', async () => {
    const { parts, model } = unitsOf(agent);
    await Promise.all([parts.lifecycle.connect(), parts.lifecycle.connect()]);
    expect(model.connections).toHaveLength(1);
    expect(parts.state.status).toBe('connected');
    expect(parts.state.connection).toBe(model.connection);
    await parts.lifecycle.close();
  });

  test('a failed connect leaves nothing and may be retried', async () => {
    const { parts, model } = unitsOf(agent);
    model.failNextConnect();
    await expect(parts.lifecycle.connect()).rejects.toBeInstanceOf(RealtimeConnectError);
    expect(parts.state.status).toBe('idle');
    expect(parts.state.connection).toBeUndefined();
    await parts.lifecycle.connect();
    expect(parts.state.status).toBe('connected');
    await parts.lifecycle.close();
    expect(model.connections.map((c) => c.closeCalls)).toEqual([1]);
  });

  test('close() is idempotent: one provider close, status closed, iterators ended; connect() after it is refused', async () => {
    const { parts, model, connect } = unitsOf(agent);
    const connection = await connect();
    const first = parts.lifecycle.close();
    const second = parts.lifecycle.close();
    await Promise.all([first, second]);
    await parts.lifecycle.close();
    expect(connection.closeCalls).toBe(1);
    expect(connection.listenerCount).toBe(0);
    expect(parts.state.status).toBe('closed');
    await expect(parts.lifecycle.connect()).rejects.toBeInstanceOf(SessionClosedError);
    expect(model.connections).toHaveLength(1);
  });

  test('the end of a connection (reconnect off): disconnected, released, and connect() opens a new one', async () => {
    const { parts, events, model, connect } = unitsOf(agent);
    const connection = await connect();
    connection.disconnect('network_down');
    await Promise.resolve();
    expect(parts.state.status).toBe('disconnected');
    expect(events.filter((e) => e.type === 'connection_status').at(-1)).toMatchObject({
      status: 'disconnected',
      reason: 'network_down',
    });
    expect(parts.state.connection).toBeUndefined();
    await parts.lifecycle.connect();
    expect(model.connections).toHaveLength(2);
    expect(parts.state.connection).toBe(model.connections[1]);
    await parts.lifecycle.close();
  });
});
