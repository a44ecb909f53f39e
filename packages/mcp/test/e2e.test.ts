import { fileURLToPath } from 'node:url';
import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession, RunState, run } from '@parley/core';
import { MCPServerStdio } from '@parley/mcp';
import { flushMicrotasks, MockModel, MockRealtimeModel } from '@parley/mock';
import { expect, test } from 'vitest';

const SERVER = fileURLToPath(new URL('./fixtures/demo-server.mjs', import.meta.url));

async function serverCalls(server: MCPServerStdio): Promise<string[]> {
  const calls = (await server.tools()).find((tool) => tool.name === 'calls')!;
  return JSON.parse(String(await calls.execute({}, { signal: new AbortController().signal } as never)));
}

/**
 * Waits until `ready()` holds, at most 20 s: the answer comes from a real child process, whose pace depends on the
 * machine's load, so the bound is time rather than a number of event-loop turns.
 */
async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the condition never held');
}

test('a text agent, a voice agent and a specialist behind asTool() share one MCP server: approvals, once per call', async () => {
  await using server = new MCPServerStdio({
    command: process.execPath,
    args: [SERVER],
    name: 'orders',
    stderr: 'ignore',
    connectTimeoutMs: 25_000, // a loaded machine can take seconds to start Node and the SDK
    needsApproval: ['refund'],
    toolFilter: { deny: ['crash'] },
  });
  await server.connect();

  // 1. A voice agent in a RealtimeSession calls a tool of the server (listed for the session's configuration); a re-sent call id does not run again.
  const voiceModel = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
  voiceModel.respondWith(
    { output: [{ type: 'function_call', name: 'lookup_order', arguments: { orderId: 'B2' }, callId: 'v1' }] },
    { output: [{ type: 'function_call', name: 'lookup_order', arguments: { orderId: 'B2' }, callId: 'v1' }] },
  );
  const voice = new Agent({ name: 'Voice', toolSources: [server] });
  {
    await using session = new RealtimeSession(voice, { model: voiceModel });
    const log = new EventRecorder(session);
    await session.connect();
    expect(voiceModel.connections[0]?.config.tools?.map((tool) => tool.name)).toContain('lookup_order');
    session.sendMessage('Where is B2?');
    await until(() => log.of('warning').some((event) => event.code === 'tool_call_repeated'));
    expect(log.of('tool_done')).toEqual([
      expect.objectContaining({ callId: 'v1', name: 'lookup_order', status: 'completed' }),
    ]);
    expect(
      voiceModel.commands
        .filter((command) => command.type === 'sendToolOutput')
        .map((command) => command.callId),
    ).toEqual(['v1']);
  }

  // 2. A text agent on the Runner looks an order up on the same server.
  const textModel = new MockModel([
    MockModel.toolCall('lookup_order', { orderId: 'A1' }, { callId: 't1' }),
    MockModel.text('A1 has shipped.'),
  ]);
  const text = await run(
    new Agent({ name: 'Text', toolSources: [server], model: textModel }),
    'Where is A1?',
  );
  expect(text.finalOutput).toBe('A1 has shipped.');

  // 3. A manager delegates to a specialist through asTool(); the specialist's refund needs approval.
  const specialist = new Agent({
    name: 'Refunds',
    toolSources: [server],
    model: new MockModel([
      MockModel.toolCall('refund', { orderId: 'A1' }, { callId: 's1' }),
      MockModel.text('A1 refunded.'),
    ]),
  });
  const managerModel = new MockModel([
    MockModel.toolCall('refunds', { input: 'Refund A1' }, { callId: 'm1' }),
    MockModel.text('Your refund is done.'),
  ]);
  const manager = new Agent({
    name: 'Manager',
    tools: [specialist.asTool({ name: 'refunds', description: 'Handles refunds.' })],
    model: managerModel,
  });
  const paused = await run(manager, 'Refund A1 please');
  expect(paused.interruptions.map((item) => [item.agent.name, item.rawItem.name])).toEqual([
    ['Refunds', 'refund'],
  ]);
  expect(await serverCalls(server)).toEqual(['lookup_order B2', 'lookup_order A1']);
  const state = RunState.fromString(manager, paused.state.toString());
  state.approve(state.getInterruptions()[0]!);
  const done = await run(manager, state);
  expect(done.finalOutput).toBe('Your refund is done.');
  expect(await serverCalls(server)).toEqual(['lookup_order B2', 'lookup_order A1', 'refund A1']);
  await flushMicrotasks();
});
