import { Agent, HostedToolUnsupportedError, hostedTool, RealtimeSession } from '@parley/core';
import { MockRealtimeModel } from '@parley/mock';
import { expect, test } from 'vitest';

const search = hostedTool({ kind: 'web_search' });

test('a realtime agent offering a hosted tool is refused before connecting, not silently dropped', () => {
  const agent = new Agent({ name: 'Researcher', hostedTools: [search] });
  const model = new MockRealtimeModel();
  expect(() => new RealtimeSession(agent, { model })).toThrow(HostedToolUnsupportedError);
  expect(() => new RealtimeSession(agent, { model })).toThrow(
    /Realtime agent "Researcher" offers the hosted tool 'web_search'/,
  );
  expect(model.connections).toHaveLength(0);
});

test('an agent reachable by handoff counts, and so does the agent given to updateAgent', async () => {
  const researcher = new Agent({ name: 'Researcher', hostedTools: [search] });
  const front = new Agent({ name: 'Front', handoffs: [researcher] });
  expect(() => new RealtimeSession(front, { model: new MockRealtimeModel() })).toThrow(
    expect.objectContaining({ code: 'hosted_tool_unsupported', kind: 'web_search' }),
  );

  const session = new RealtimeSession(new Agent({ name: 'Plain' }), { model: new MockRealtimeModel() });
  await session.connect();
  await expect(session.updateAgent(researcher)).rejects.toBeInstanceOf(HostedToolUnsupportedError);
  expect(session.currentAgent.name).toBe('Plain');
  await session.close();
});

const orders = hostedTool({ kind: 'mcp', server: 'orders', url: 'https://mcp.orders.test/mcp' });

test('hosted MCP needs a model that declares it: refused by default, accepted where hostedTools names mcp', async () => {
  const agent = new Agent({ name: 'Support', hostedTools: [orders] });
  expect(() => new RealtimeSession(agent, { model: new MockRealtimeModel() })).toThrow(
    expect.objectContaining({ code: 'hosted_tool_unsupported', kind: 'mcp' }),
  );
  // Declaring mcp lets mcp through, and nothing else.
  const model = new MockRealtimeModel({ capabilities: { hostedTools: ['mcp'] } });
  const searching = new Agent({ name: 'Both', hostedTools: [orders, search] });
  expect(() => new RealtimeSession(searching, { model })).toThrow(
    expect.objectContaining({ kind: 'web_search' }),
  );
  const session = new RealtimeSession(agent, { model });
  await session.connect();
  expect(model.connections[0]?.config.hostedTools).toEqual([
    { kind: 'mcp', server: 'orders', url: 'https://mcp.orders.test/mcp', requireApproval: 'always' },
  ]);
  await session.close();
});

test('an onApproval that throws rejects the call (fail closed) and reports the error', async () => {
  const failing = hostedTool({
    kind: 'mcp',
    server: 'orders',
    url: 'https://mcp.orders.test/mcp',
    onApproval: () => {
      throw new Error('policy service down');
    },
  });
  const model = new MockRealtimeModel({ capabilities: { hostedTools: ['mcp'] } });
  const session = new RealtimeSession(new Agent({ name: 'Support', hostedTools: [failing] }), { model });
  const errors: string[] = [];
  const asked: string[] = [];
  session.on('error', (event) => errors.push(`${event.source}:${event.code}`));
  session.on('tool_approval_requested', (event) => asked.push(event.callId));
  await session.connect();
  const connection = model.connections[0]!;
  const request = {
    type: 'hosted_tool_approval_requested',
    approvalId: 'apr_1',
    kind: 'mcp',
    server: 'orders',
    name: 'cancel_order',
    arguments: '{}',
  } as const;
  connection.emit(request);
  const [decision] = await connection.waitForCommands((c) => c.type === 'sendHostedToolApproval');
  expect(decision).toEqual({ type: 'sendHostedToolApproval', approvalId: 'apr_1', approved: false });
  expect(errors).toEqual(['tool:hosted_approval_failed']);
  expect(asked).toEqual([]);
  // Asked again under the same id: decided once.
  const warned = new Promise<string>((resolve) => session.on('warning', (event) => resolve(event.code)));
  connection.emit(request);
  expect(await warned).toBe('hosted_approval_repeated');
  expect(connection.commands.filter((c) => c.type === 'sendHostedToolApproval')).toHaveLength(1);
  await session.close();
});
