import { Agent, SessionClosedError } from '@parley/core';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { openSession } from '../support.js';

/** connect() reports connected; close() is idempotent, closes the connection and ends every iterator. */
export const lifecycleScenario: ConformanceScenario = {
  name: 'connect and close: connected, then one close that ends the event stream',
  requires: [],
  async run(harness) {
    const agent = new Agent({ name: 'Greeter', instructions: 'Greet the caller.' });
    const { session, events } = openSession(harness, agent);
    await session.connect();
    await events.waitFor('connection_status', (e) => e.status === 'connected');
    await events.waitFor('agent_started');
    expect(session.status).toBe('connected');
    expect((await harness.sessionConfig()).instructions).toBe('Greet the caller.');

    await Promise.all([session.close(), session.close()]);
    await session.close();
    await harness.waitForClientClose();
    await events.ended;
    expect(events.of('connection_status').filter((e) => e.status === 'closed')).toHaveLength(1);
    expect(events.events.at(-1)).toEqual({ type: 'connection_status', status: 'closed' });
    expect(() => session.sendMessage('hello?')).toThrow(SessionClosedError);
  },
};
