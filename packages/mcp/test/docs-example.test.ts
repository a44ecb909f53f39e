import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { codeRegion } from '@parley/conformance';
import { expect, test } from 'vitest';

const page = readFileSync(new URL('../../../docs/mcp.md', import.meta.url), 'utf8');
const serverScript = fileURLToPath(new URL('./fixtures/demo-server.mjs', import.meta.url));

test('the example in docs/mcp.md works', async () => {
  const printed: string[] = [];
  const console = { log: (...parts: unknown[]) => printed.push(parts.join(' ')) };
  const { Agent, run } = await import('@parley/core');
  const { MCPServerStdio } = await import('@parley/mcp');
  const { MockModel } = await import('@parley/mock');

  // #region example
  await using orders = new MCPServerStdio({
    command: process.execPath, // node
    args: [serverScript], // an MCP server built with @modelcontextprotocol/sdk
    needsApproval: ['refund'],
    toolFilter: { deny: ['crash'] },
  });
  await orders.connect(); // the app owns it: it stays up until the end of this scope

  const agent = new Agent({
    name: 'Orders',
    instructions: 'Answer questions about orders.',
    toolSources: [orders],
    model: new MockModel([
      MockModel.toolCall('lookup_order', { orderId: 'A1' }),
      MockModel.text('Order A1 has shipped.'),
    ]),
  });
  const result = await run(agent, 'Where is order A1?');
  console.log(result.finalOutput);
  console.log(orders.cachedTools.map((tool) => tool.name).join(', '));
  // #endregion example

  expect(printed).toEqual([
    'Order A1 has shipped.',
    'add, lookup_order, refund, wait_forever, calls, enable_weather',
  ]);
  expect(page).toContain(await codeRegion(import.meta.url, 'example'));
});
