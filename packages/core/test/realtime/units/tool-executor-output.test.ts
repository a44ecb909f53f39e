import { deferred } from '@parley/conformance';
import { Agent, type RealtimeHistoryItem, tool } from '@parley/core';
import { flushMicrotasks } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { forecaster as agent } from '../shared-fixtures.js';
import { unitsOf } from './units-rig.js';

/**
 * ToolExecutor owns a call's output: it is sent, then mirrored into history, then the coordinator is told (which
 * may request the follow-up), so the follow-up always finds the output in place; sent or not, the call is over
 * and its response's one follow-up does not wait for it.
 */

const call = (callId: string, responseId?: string) => ({
  type: 'function_call' as const,
  itemId: `fc_${callId}`,
  callId,
  name: 'weather',
  arguments: JSON.stringify({ city: callId }),
  ...(responseId !== undefined && { responseId }),
});

function outputOf(history: readonly RealtimeHistoryItem[], callId: string): string | undefined {
  for (const item of history) if (item.type === 'function_call' && item.callId === callId) return item.output;
  return undefined;
}

describe('ToolExecutor: send the output, mirror it, tell the coordinator', () => {
  test('the follow-up finds the output sent and in history', async () => {
    const { parts, sent, connect } = unitsOf(agent);
    await connect();
    parts.executor.callReceived(call('Oslo'));
    await flushMicrotasks();
    expect(sent.map((s) => s.command.type)).toEqual(['sendToolOutput', 'createResponse']);
    expect(sent[0]?.command).toEqual({ type: 'sendToolOutput', callId: 'Oslo', output: 'sunny in Oslo' });
    expect(outputOf(sent[1]?.history ?? [], 'Oslo')).toBe('sunny in Oslo');
    await parts.lifecycle.close();
  });

  test('parallel calls of one response: each output in place before the one follow-up', async () => {
    const { model, parts, sent, connect } = unitsOf(agent);
    const connection = await connect();
    connection.emit({ type: 'response_started', responseId: 'resp_1', ephemeral: false });
    parts.executor.callReceived(call('Oslo', 'resp_1'));
    parts.executor.callReceived(call('Rome', 'resp_1'));
    await flushMicrotasks();
    expect(sent.map((s) => s.command.type)).toEqual(['sendToolOutput', 'sendToolOutput']);
    connection.emit({
      type: 'response_done',
      responseId: 'resp_1',
      status: 'completed',
      ephemeral: false,
    });
    await flushMicrotasks();
    const followUps = sent.filter((s) => s.command.type === 'createResponse');
    expect(followUps).toHaveLength(1);
    expect(outputOf(followUps[0]?.history ?? [], 'Oslo')).toBe('sunny in Oslo');
    expect(outputOf(followUps[0]?.history ?? [], 'Rome')).toBe('sunny in Rome');
    expect(model.connection.commands.filter((c) => c.type === 'createResponse')).toHaveLength(1);
    await parts.lifecycle.close();
  });

  test('an output the connection refuses (it stays open): an error, no history output, and the follow-up still goes out', async () => {
    const { model, parts, sent, events, connect } = unitsOf(agent);
    const connection = await connect();
    model.respondWith('Sorry, no weather.');
    connection.failNextSend('sendToolOutput');
    parts.executor.callReceived(call('Oslo'));
    await flushMicrotasks();
    expect(events.filter((e) => e.type === 'error').map((e) => e.type === 'error' && e.code)).toEqual([
      'tool_output_not_sent',
    ]);
    const followUp = sent.find((s) => s.command.type === 'createResponse');
    expect(followUp).toBeDefined();
    expect(outputOf(parts.history.items, 'Oslo')).toBeUndefined();
    await parts.lifecycle.close();
  });

  test('a tool that finishes after close() sends nothing', async () => {
    const gate = deferred<string>();
    const slow = tool({
      name: 'weather',
      description: 'The weather in a city',
      parameters: z.object({ city: z.string() }),
      execute: () => gate.promise,
    });
    const { parts, sent, connect } = unitsOf(new Agent({ name: 'Slow', tools: [slow] }));
    await connect();
    parts.executor.callReceived(call('Oslo'));
    await flushMicrotasks();
    const closed = parts.lifecycle.close();
    gate.resolve('late');
    await closed;
    expect(sent.map((s) => s.command.type)).toEqual([]);
    expect(outputOf(parts.history.items, 'Oslo')).toBeUndefined();
  });
});
