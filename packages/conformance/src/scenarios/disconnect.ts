import { Agent, SessionNotConnectedError } from '@parley/core';
import { expect } from 'vitest';
import type { ConformanceScenario } from '../scenario.js';
import { withSession } from '../support.js';

/** A dropped connection is reported; commands are refused until connect() makes a new one. */
export const disconnectScenario: ConformanceScenario = {
  name: 'a dropped connection is reported and connect() reconnects',
  requires: [],
  exercises: ['responseRequests'],
  async run(harness) {
    // The manual path: automatic reconnection is off here (core's own tests cover it).
    const options = { reconnect: false };
    await withSession(
      harness,
      new Agent({ name: 'Resilient' }),
      async (session, events) => {
        await session.connect();
        await harness.disconnect();
        await events.waitFor('connection_status', (e) => e.status === 'disconnected');
        expect(session.status).toBe('disconnected');
        expect(() => session.sendMessage('anyone?')).toThrow(SessionNotConnectedError);
        await session.connect();
        expect(session.status).toBe('connected');
        await events.waitFor('connection_status', (e) => e.status === 'connected', 2);
        // The new connection answers: where the app can ask for a response.
        if (!harness.model.capabilities.responseRequests) return;
        await harness.respondWith({ output: [{ type: 'message', text: 'Reconnected.' }] });
        session.sendMessage('anyone?');
        await events.waitFor('response_done');
        expect(session.history.at(-1)).toMatchObject({ text: 'Reconnected.' });
      },
      options,
    );
  },
};
