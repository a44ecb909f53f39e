import { readFileSync } from 'node:fs';
import { codeRegion } from '@parley/conformance';
import { Agent, RealtimeSession } from '@parley/core';
import { hostedMcpTool } from '@parley/openai';
import { expect, test } from 'vitest';
import { modelFor, simulator } from './helpers.js';

const page = readFileSync(new URL('../../../../docs/mcp.md', import.meta.url), 'utf8');

test('the realtime hosted MCP example in docs/mcp.md works', async () => {
  const calls: string[] = [];
  const sim = await simulator({
    mcpServers: {
      'https://mcp.example.com/orders': {
        listTools: () => [{ name: 'lookup_order' }, { name: 'cancel_order' }],
        callTool: (name, args, headers) => {
          calls.push(`${name} ${JSON.stringify(args)} ${headers.Authorization}`);
          return 'Order 42 shipped on Monday.';
        },
      },
    },
  });
  sim.script([{ type: 'mcp_call', server: 'orders', name: 'lookup_order', arguments: { id: 42 } }]);
  const model = modelFor(sim);
  const ordersToken = 'orders-token';
  const printed: string[] = [];
  const console = { log: (line: string) => printed.push(line) };
  let session: RealtimeSession;

  // #region example
  const agent = new Agent({
    name: 'Support',
    instructions: 'Help with orders.',
    hostedTools: [
      hostedMcpTool({
        serverLabel: 'orders',
        serverUrl: 'https://mcp.example.com/orders',
        headers: { Authorization: `Bearer ${ordersToken}` },
      }),
    ],
  });
  session = new RealtimeSession(agent, { model, config: { outputModalities: ['text'] } });
  session.on('tool_approval_requested', (request) => {
    if (request.hosted?.server !== 'orders') return;
    if (request.name === 'lookup_order') session.approve(request.callId);
    else session.reject(request.callId, { message: 'Only lookups are allowed.' });
  });
  session.on('hosted_tool_call', ({ item }) => {
    if (item.action.type === 'call' && item.status === 'completed')
      console.log(`${item.action.name} -> ${item.action.output}`);
  });
  session.on('turn_done', (turn) => console.log(turn.transcript));
  await session.connect();
  session.sendMessage('Where is order 42?');
  // #endregion example

  await new Promise<void>((resolve) =>
    session.on('turn_done', (turn) => turn.transcript !== '' && resolve()),
  );
  await session.close();
  expect(printed).toEqual([
    '', // the turn that asked for approval said nothing
    'lookup_order -> Order 42 shipped on Monday.',
    'The server said: Order 42 shipped on Monday.',
  ]);
  expect(calls).toEqual(['lookup_order {"id":42} Bearer orders-token']);
  const region = (await codeRegion(import.meta.url, 'example')).replace(
    'session = new',
    'const session = new',
  );
  expect(page).toContain(region);
});
