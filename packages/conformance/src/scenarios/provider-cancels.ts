import { Agent, tool } from '@parley/core';
import { expect } from 'vitest';
import { z } from 'zod';
import type { ConformanceScenario } from '../scenario.js';
import { ScenarioSkippedError } from '../scenario.js';
import { commandsOf, withSession } from '../support.js';

/**
 * A tool call the provider withdraws (after a barge-in, say) stops the tool: its signal aborts, no output goes back,
 * the app sees `tool_done` with status `cancelled`, and history marks the call cancelled.
 */
export const providerCancelledToolScenario: ConformanceScenario = {
  name: 'a tool call the provider cancels is stopped and sends no output',
  requires: ['responseRequests', 'toolCallCancellation'],
  async run(harness) {
    const cancelToolCall = harness.cancelToolCall?.bind(harness);
    if (!cancelToolCall)
      throw new ScenarioSkippedError(
        `the harness of provider "${harness.model.provider}" cannot cancel a tool call (no cancelToolCall())`,
      );
    const signals: AbortSignal[] = [];
    const wait = tool({
      name: 'wait_for_it',
      description: 'Waits until stopped',
      parameters: z.object({}),
      execute: (_input, { signal }) => {
        signals.push(signal);
        return new Promise<string>((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        );
      },
    });
    await withSession(harness, new Agent({ name: 'Patient', tools: [wait] }), async (session, events) => {
      await session.connect();
      await harness.respondWith({
        output: [{ type: 'function_call', name: 'wait_for_it', arguments: {}, callId: 'call_withdrawn' }],
      });
      session.sendMessage('Wait for it.');
      const started = await events.waitFor('tool_started');
      await events.waitFor('response_done');
      await cancelToolCall(started.callId);
      const done = await events.waitFor('tool_done');
      expect(done).toMatchObject({ callId: started.callId, status: 'cancelled' });
      expect(signals[0]?.aborted).toBe(true);
      expect(session.history.find((i) => i.type === 'function_call')).toMatchObject({
        callId: started.callId,
        status: 'cancelled',
      });
      const commands = await harness.commands();
      expect(commandsOf(commands, 'sendToolOutput')).toEqual([]);
      expect(events.of('error')).toEqual([]);
      expect(session.status).toBe('connected');
    });
  },
};

/**
 * A failure the provider documents as fatal (however its protocol says it: an error message, a close code) is a
 * typed fatal `error` event with the provider's code, and the session does not retry it as a network drop.
 */
export const fatalProviderErrorScenario: ConformanceScenario = {
  name: 'a provider error that ends the connection is a fatal error event, not a reconnect',
  requires: [],
  async run(harness) {
    const failFatally = harness.failFatally?.bind(harness);
    if (!failFatally)
      throw new ScenarioSkippedError('the harness has no fatal provider failure (failFatally)');
    // Automatic reconnection is on: a fatal failure must not use it.
    await withSession(harness, new Agent({ name: 'Doomed' }), async (session, events) => {
      await session.connect();
      const { code } = await failFatally();
      const error = await events.waitFor('error');
      expect(error).toMatchObject({ source: 'provider', code, fatal: true });
      await events.waitFor('connection_status', (e) => e.status === 'disconnected');
      expect(session.status).toBe('disconnected');
      expect(events.of('reconnecting')).toEqual([]);
      // The app decides: connect() again opens a new connection.
      await session.connect();
      expect(session.status).toBe('connected');
    });
  },
};
