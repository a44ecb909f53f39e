import { Agent, type RealtimeCommand, type RealtimeSessionEvent, tool } from '@parley/core';
import { flushMicrotasks } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { AgentSwitcher, type AgentSwitchPort, ToolExecutor, type ToolExecutorPort } from '#session-units';

/**
 * Each unit is built from its port alone: small fakes stand for the rest of the session, and the test reads what
 * the unit did through them.
 */

const weather = tool({
  name: 'weather',
  description: 'The weather in a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny in ${city}`,
});
const forecaster = new Agent({ name: 'forecaster', instructions: 'Forecast.', tools: [weather] });

const call = (callId: string) => ({
  type: 'function_call' as const,
  itemId: `fc_${callId}`,
  callId,
  name: 'weather',
  arguments: JSON.stringify({ city: callId }),
});

/** A ToolExecutor on fakes: every step it takes is written to `steps`, in order. */
function executorOnFakes(dropped: readonly string[] = []) {
  const steps: string[] = [];
  const events: RealtimeSessionEvent[] = [];
  const port: ToolExecutorPort<unknown> = {
    state: {
      agent: forecaster,
      live: true,
      send: (command: RealtimeCommand) => {
        steps.push(`send ${command.type}`);
      },
      emit: (event) => {
        events.push(event);
      },
      reportError: (_source, error) => {
        steps.push(`error ${String(error)}`);
      },
      hub: { observed: () => false },
    },
    tasks: {
      spawn: (run, onError) => {
        const controller = new AbortController();
        run(controller.signal).catch(onError);
        return (reason) => controller.abort(reason);
      },
    },
    approvals: { standing: () => undefined, wait: () => Promise.resolve({ approved: true }) },
    responses: { get: () => undefined, wasDropped: (id) => dropped.includes(id) },
    mirror: {
      functionCallArrived: (event) => steps.push(`arrived ${event.callId}`),
      functionCall: (event) => steps.push(`mirror call ${event.callId}`),
      toolOutput: (callId, output) => steps.push(`mirror output ${callId}: ${output}`),
      toolCancelled: (callId) => steps.push(`mirror cancelled ${callId}`),
    },
    coordinator: {
      toolCallStarted: (callId) => steps.push(`started ${callId}`),
      toolCallFinished: (callId, failed) => steps.push(`finished ${callId}${failed ? ' (failed)' : ''}`),
    },
    unacknowledged: {
      outputSent: (callId) => steps.push(`unacknowledged ${callId}`),
      outputLost: (callId) => steps.push(`lost ${callId}`),
    },
    switcher: { switch: () => Promise.reject(new Error('no handoff here')) },
  };
  const executor = new ToolExecutor(
    {
      runContext: { context: undefined, usage: {} } as never,
      clock: { now: () => 0, setTimeout: () => 0, clearTimeout: () => {} } as never,
      toolTimeoutMs: undefined,
      toolErrorFormatter: undefined,
      sequential: false,
    },
    port,
  );
  return { executor, steps, events };
}

describe('ToolExecutor from its port', () => {
  test('a call is recorded, run, and its output sent, then mirrored, then reported to the coordinator', async () => {
    const { executor, steps, events } = executorOnFakes();
    executor.callReceived(call('Oslo'));
    await flushMicrotasks();
    expect(steps).toEqual([
      'arrived Oslo',
      'mirror call Oslo',
      'started Oslo',
      'send sendToolOutput',
      'mirror output Oslo: sunny in Oslo',
      'unacknowledged Oslo',
      'finished Oslo',
    ]);
    expect(events.map((e) => e.type)).toEqual(['tool_started', 'tool_done']);
  });

  test('a call delivered twice runs once; the repeat is a warning', async () => {
    const { executor, steps, events } = executorOnFakes();
    executor.callReceived(call('Oslo'));
    await flushMicrotasks();
    executor.callReceived(call('Oslo'));
    await flushMicrotasks();
    expect(steps.filter((step) => step === 'send sendToolOutput')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'warning').map((e) => (e as { code: string }).code)).toEqual([
      'tool_call_repeated',
    ]);
  });

  test('a call of a response the session dropped as stale is neither mirrored nor run: a warning', async () => {
    const { executor, steps, events } = executorOnFakes(['resp_stale']);
    executor.callReceived({ ...call('Oslo'), responseId: 'resp_stale' });
    await flushMicrotasks();
    expect(steps).toEqual([]);
    expect(events.map((e) => e.type === 'warning' && e.code)).toEqual(['response_event_ignored']);
  });
});

/** An AgentSwitcher on a fake state: the active agent, the status, the way out. */
function switcherOnFakes(status: 'idle' | 'connected') {
  const sent: RealtimeCommand[] = [];
  const events: RealtimeSessionEvent[] = [];
  const state = {
    status,
    closing: false,
    live: status === 'connected',
    agent: forecaster as Agent,
    agentConfig: undefined,
    lifetime: new AbortController(),
    connectionFor: () => undefined,
    send: (command: RealtimeCommand) => {
      sent.push(command);
    },
    emit: (event: RealtimeSessionEvent) => {
      events.push(event);
    },
    reportError: () => {},
  };
  const port = { state, connecting: () => undefined } as unknown as AgentSwitchPort<unknown>;
  const switcher = new AgentSwitcher(
    {
      runContext: { context: undefined, usage: {} } as never,
      capabilities: { mutableInstructions: true, mutableTools: true } as never,
      provider: 'fake',
    },
    port,
  );
  return { switcher, state, sent, events };
}

describe('AgentSwitcher from its port', () => {
  const billing = new Agent({ name: 'billing', instructions: 'Bill.' });

  test('before a connection, updateAgent only replaces the agent: nothing is sent or announced', async () => {
    const { switcher, state, sent, events } = switcherOnFakes('idle');
    await switcher.update(billing);
    expect(state.agent).toBe(billing);
    expect(sent).toEqual([]);
    expect(events).toEqual([]);
  });

  test('connected, a switch commits the agent, announces it, then sends one updateSession', async () => {
    const { switcher, state, sent, events } = switcherOnFakes('connected');
    await switcher.switch(billing, 'update_agent');
    expect(state.agent).toBe(billing);
    expect(events.map((e) => e.type)).toEqual(['agent_done', 'agent_started', 'handoff']);
    expect(sent.map((c) => c.type)).toEqual(['updateSession']);
  });
});
