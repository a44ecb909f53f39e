import { EventRecorder } from '@parley/conformance';
import { Agent, HostedToolUnsupportedError, hostedTool, RealtimeSession } from '@parley/core';
import { GeminiLiveModel } from '@parley/google';
import { type HostedMcpToolOptions, hostedMcpTool, OpenAILiveModel } from '@parley/openai';
import { echoBrain, type RealtimeSimulator, type SimulatedMcpServer } from '@parley/simulator';
import { afterEach, describe, expect, test } from 'vitest';
import { modelFor, sent, simulator } from './helpers.js';

const ORDERS_URL = 'https://mcp.orders.test/mcp';
const TOKEN = 'Bearer SECRET-ORDERS-TOKEN';

/** A scripted MCP server: one tool, and every call it got (with the headers it came with). */
function ordersServer() {
  const calls: { name: string; args: Record<string, unknown>; headers: Record<string, string> }[] = [];
  const server: SimulatedMcpServer = {
    listTools: () => [
      { name: 'lookup_order', description: 'Where an order is', inputSchema: { type: 'object' } },
      { name: 'cancel_order', description: 'Cancels an order', inputSchema: { type: 'object' } },
    ],
    callTool: (name, args, headers) => {
      calls.push({ name, args, headers: { ...headers } });
      return `Order ${String(args.id)} shipped`;
    },
  };
  return { server, calls };
}

const sessions: RealtimeSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

async function start(sim: RealtimeSimulator, options: Partial<HostedMcpToolOptions> = {}) {
  const agent = new Agent({
    name: 'Support',
    instructions: 'Help with orders.',
    hostedTools: [
      hostedMcpTool({
        serverLabel: 'orders',
        serverUrl: ORDERS_URL,
        headers: { Authorization: TOKEN },
        ...options,
      }),
    ],
  });
  const session = new RealtimeSession(agent, {
    model: modelFor(sim),
    config: { outputModalities: ['text'] },
  });
  sessions.push(session);
  const log = new EventRecorder(session, { via: 'listeners' });
  await session.connect();
  const server = await sim.waitForConnection();
  return { session, log, server };
}

/** The client events as `type` (or `type:itemType`). */
function clientTypes(server: Awaited<ReturnType<RealtimeSimulator['waitForConnection']>>): string[] {
  return server.clientEvents.map((e) => {
    const event = e as { type: string; item?: { type: string } };
    return event.item ? `${event.type}:${event.item.type}` : event.type;
  });
}

describe('hosted MCP tools in a RealtimeSession over OpenAIRealtimeModel and the simulator', () => {
  test('a call that needs approval waits for the app: approved, the server runs it and the model answers with it', async () => {
    const { server: orders, calls } = ordersServer();
    const sim = await simulator({ mcpServers: { [ORDERS_URL]: orders } });
    sim.script([{ type: 'mcp_call', server: 'orders', name: 'lookup_order', arguments: { id: 42 } }]);
    const { session, log, server } = await start(sim);

    expect(sent(server, 'session.update')[0]?.session).toMatchObject({
      tools: [
        {
          type: 'mcp',
          server_label: 'orders',
          server_url: ORDERS_URL,
          require_approval: 'always',
          headers: { Authorization: TOKEN },
        },
      ],
    });
    const listed = await log.waitFor('hosted_tool_call', (e) => e.item.action.type === 'list_tools');
    expect(listed.item).toMatchObject({
      kind: 'mcp',
      server: 'orders',
      status: 'completed',
      action: { type: 'list_tools', tools: [{ name: 'lookup_order' }, { name: 'cancel_order' }] },
    });

    session.sendMessage('Where is order 42?');
    const asked = await log.waitFor('tool_approval_requested');
    expect(asked).toMatchObject({
      name: 'lookup_order',
      arguments: '{"id":42}',
      hosted: { kind: 'mcp', server: 'orders' },
    });
    expect(asked.agent.name).toBe('Support');
    expect(session.pendingApprovals.map((a) => a.callId)).toEqual([asked.callId]);
    // Nothing ran and nothing was asked of the model while the app decides.
    await log.waitFor('response_done');
    expect(calls).toEqual([]);
    expect(clientTypes(server).filter((t) => t === 'response.create')).toHaveLength(1);

    session.approve(asked.callId);
    const done = await log.waitFor(
      'hosted_tool_call',
      (e) => e.item.action.type === 'call' && e.item.status === 'completed',
    );
    expect(done).toMatchObject({
      approvalId: asked.callId,
      item: {
        server: 'orders',
        action: { type: 'call', name: 'lookup_order', arguments: '{"id":42}', output: 'Order 42 shipped' },
      },
    });
    const turn = await log.waitFor('turn_done', (e) => e.transcript !== '');
    expect(turn.transcript).toBe('The server said: Order 42 shipped');
    expect(calls).toEqual([{ name: 'lookup_order', args: { id: 42 }, headers: { Authorization: TOKEN } }]);
    // The decision, then exactly one request for the answer.
    const types = clientTypes(server);
    expect(types.slice(types.indexOf('conversation.item.create:mcp_approval_response'))).toEqual([
      'conversation.item.create:mcp_approval_response',
      'response.create',
    ]);
    expect(sent(server, 'conversation.item.create').at(-1)?.item).toEqual({
      type: 'mcp_approval_response',
      approval_request_id: asked.callId,
      approve: true,
    });
    expect(session.pendingApprovals).toEqual([]);
    // The token went to the provider only: no session event carries it.
    expect(JSON.stringify(log.events.map(({ ...e }) => ({ ...e, agent: undefined })))).not.toContain(
      'SECRET',
    );
  });

  test('a rejected call never runs; the model hears the reason and answers without it', async () => {
    const { server: orders, calls } = ordersServer();
    const sim = await simulator({ mcpServers: { [ORDERS_URL]: orders } });
    sim.script([{ type: 'mcp_call', server: 'orders', name: 'cancel_order', arguments: { id: 7 } }]);
    const { session, log, server } = await start(sim);

    session.sendMessage('Cancel order 7.');
    const asked = await log.waitFor('tool_approval_requested');
    session.reject(asked.callId, { message: 'Cancelling needs a human.' });
    const turn = await log.waitFor('turn_done', (e) => e.transcript !== '');
    expect(turn.transcript).toBe('I was not allowed to call cancel_order.');
    expect(sent(server, 'conversation.item.create').at(-1)?.item).toEqual({
      type: 'mcp_approval_response',
      approval_request_id: asked.callId,
      approve: false,
      reason: 'Cancelling needs a human.',
    });
    expect(calls).toEqual([]);
    expect(log.of('hosted_tool_call').filter((e) => e.item.action.type === 'call')).toEqual([]);
  });

  test("with requireApproval: 'never' the call runs at once, inside the response that made it", async () => {
    const { server: orders, calls } = ordersServer();
    const sim = await simulator({ mcpServers: { [ORDERS_URL]: orders } });
    sim.script([{ type: 'mcp_call', server: 'orders', name: 'lookup_order', arguments: { id: 1 } }]);
    const { session, log } = await start(sim, { requireApproval: 'never' });

    session.sendMessage('Where is order 1?');
    const turn = await log.waitFor('turn_done', (e) => e.transcript !== '');
    expect(turn.transcript).toBe('The server said: Order 1 shipped');
    expect(log.of('tool_approval_requested')).toEqual([]);
    const call = log.of('hosted_tool_call').filter((e) => e.item.action.type === 'call');
    expect(call.map((e) => e.item.status)).toEqual(['in_progress', 'completed']);
    expect(call[1]?.responseId).toBe(turn.responseId);
    expect(calls).toHaveLength(1);
  });

  test('a call the server fails is reported failed with its error, and the model hears the error', async () => {
    const sim = await simulator({
      mcpServers: {
        [ORDERS_URL]: {
          listTools: () => [{ name: 'lookup_order' }],
          callTool: () => {
            throw new Error('order database unavailable');
          },
        },
      },
    });
    sim.script([{ type: 'mcp_call', server: 'orders', name: 'lookup_order', arguments: { id: 3 } }]);
    const { session, log } = await start(sim, { requireApproval: 'never' });
    session.sendMessage('Where is order 3?');
    const turn = await log.waitFor('turn_done', (e) => e.transcript !== '');
    expect(turn.transcript).toBe('The server said: order database unavailable');
    const ended = log
      .of('hosted_tool_call')
      .filter((e) => e.item.status !== 'in_progress')
      .at(-1);
    expect(ended?.item).toMatchObject({
      status: 'failed',
      action: { type: 'call', name: 'lookup_order', error: 'order database unavailable' },
    });
    expect(log.of('error')).toEqual([]);
  });

  test("a server error that echoes the server's credentials reaches the app without them", async () => {
    const sim = await simulator({
      mcpServers: {
        [ORDERS_URL]: {
          listTools: () => [{ name: 'lookup_order' }],
          callTool: (_name, _args, headers) => {
            throw new Error(`401: the token ${String(headers.Authorization)} is not valid`);
          },
        },
      },
    });
    sim.script([{ type: 'mcp_call', server: 'orders', name: 'lookup_order', arguments: {} }]);
    const { session, log } = await start(sim, { requireApproval: 'never' });
    session.sendMessage('Where is my order?');
    await log.waitFor('turn_done', (e) => e.transcript !== '');
    const failed = log.of('hosted_tool_call').find((e) => e.item.status === 'failed');
    expect(failed?.item.action).toMatchObject({ error: '401: the token [redacted] is not valid' });
  });

  test('onApproval decides by itself: no approval is asked of the app, and its reason reaches the model', async () => {
    const { server: orders, calls } = ordersServer();
    const sim = await simulator({ mcpServers: { [ORDERS_URL]: orders } });
    // The response after the approved call answers with it (the echo brain); the next turn calls again.
    sim.script(
      [{ type: 'mcp_call', server: 'orders', name: 'lookup_order', arguments: { id: 5 } }],
      echoBrain,
      [{ type: 'mcp_call', server: 'orders', name: 'cancel_order', arguments: { id: 5 } }],
    );
    const seen: string[] = [];
    const { session, log, server } = await start(sim, {
      onApproval: async (_context, request) => {
        seen.push(`${request.server}/${request.name} ${request.arguments}`);
        return request.name === 'lookup_order'
          ? { approve: true }
          : { approve: false, reason: 'Only lookups are allowed.' };
      },
    });

    session.sendMessage('Where is order 5?');
    expect((await log.waitFor('turn_done', (e) => e.transcript !== '')).transcript).toBe(
      'The server said: Order 5 shipped',
    );
    session.sendMessage('Cancel it.');
    expect((await log.waitFor('turn_done', (e) => e.transcript !== '', 2)).transcript).toBe(
      'I was not allowed to call cancel_order.',
    );
    expect(seen).toEqual(['orders/lookup_order {"id":5}', 'orders/cancel_order {"id":5}']);
    expect(log.of('tool_approval_requested')).toEqual([]);
    expect(calls.map((c) => c.name)).toEqual(['lookup_order']);
    expect(sent(server, 'conversation.item.create').at(-1)?.item).toMatchObject({
      approve: false,
      reason: 'Only lookups are allowed.',
    });
  });

  test('OpenAIRealtimeModel runs hosted MCP but no other hosted tool: those are refused before connecting', async () => {
    const sim = await simulator();
    const agent = new Agent({ name: 'Researcher', hostedTools: [hostedTool({ kind: 'web_search' })] });
    expect(() => new RealtimeSession(agent, { model: modelFor(sim) })).toThrow(HostedToolUnsupportedError);
    expect(sim.connections).toHaveLength(0);
  });

  test('GPT-Live and Gemini Live run no hosted MCP: an agent offering it is refused before connecting', () => {
    const agent = new Agent({
      name: 'Support',
      hostedTools: [hostedMcpTool({ serverLabel: 'orders', serverUrl: ORDERS_URL })],
    });
    for (const model of [
      new OpenAILiveModel({ apiKey: 'sk-live-test-key' }),
      new GeminiLiveModel({ apiKey: 'gemini-test-key' }),
    ]) {
      expect(() => new RealtimeSession(agent, { model })).toThrow(
        expect.objectContaining({ code: 'hosted_tool_unsupported', kind: 'mcp', provider: model.provider }),
      );
    }
  });
});
