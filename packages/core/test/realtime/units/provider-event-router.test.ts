import { Agent, type RealtimeConnection } from '@parley/core';
import { describe, expect, test } from 'vitest';
import { unitsOf } from './units-rig.js';

/** The router hands each event of the live connection to its consumers, and drops everything else. */

const agent = new Agent({ name: 'Listener' });
const userItem = (itemId: string) => ({
  type: 'item_added' as const,
  item: {
    type: 'message' as const,
    itemId,
    role: 'user' as const,
    content: [{ type: 'text' as const, text: itemId }],
  },
});

describe('ProviderEventRouter', () => {
  test('an event of the live connection reaches its consumer (the history mirror)', async () => {
    const { parts, connect } = unitsOf(agent);
    const connection = await connect();
    parts.router.route(connection, userItem('u_1'));
    expect(parts.history.items.map((item) => item.itemId)).toEqual(['u_1']);
    await parts.lifecycle.close();
  });

  test('an event of a connection that is not the live one is dropped', async () => {
    const { parts, connect } = unitsOf(agent);
    await connect();
    const stale = {} as RealtimeConnection;
    parts.router.route(stale, userItem('u_stale'));
    expect(parts.history.items).toEqual([]);
    await parts.lifecycle.close();
  });

  test('before connect and after close, events are dropped', async () => {
    const { parts, connect, model } = unitsOf(agent);
    const early = {} as RealtimeConnection;
    parts.router.route(early, userItem('u_early'));
    const connection = await connect();
    await parts.lifecycle.close();
    parts.router.route(connection, userItem('u_late'));
    expect(parts.history.items).toEqual([]);
    expect(model.connections).toHaveLength(1);
  });

  test('a provider error becomes an error event; a fatal one ends the connection', async () => {
    const { parts, events, connect } = unitsOf(agent);
    const connection = await connect();
    parts.router.route(connection, { type: 'error', code: 'server_error', message: 'Oops.' });
    expect(parts.state.status).toBe('connected');
    parts.router.route(connection, { type: 'error', code: 'bad_shape', message: 'No.', fatal: true });
    expect(
      events.filter((e) => e.type === 'error').map((e) => e.type === 'error' && [e.source, e.code]),
    ).toEqual([
      ['provider', 'server_error'],
      ['provider', 'bad_shape'],
    ]);
    expect(parts.state.status).toBe('disconnected');
    await parts.lifecycle.close();
  });
});
