import { fileURLToPath } from 'node:url';
import { AbortError, Agent, RealtimeSession, Runner, RunState, run, tool } from '@parley/core';
import {
  MCPConnectError,
  MCPServerClosedError,
  MCPServerStdio,
  type MCPServerStdioOptions,
} from '@parley/mcp';
import { ManualClock, MockModel, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const SERVER = fileURLToPath(new URL('./fixtures/demo-server.mjs', import.meta.url));

function demo(options: Partial<MCPServerStdioOptions> = {}) {
  return new MCPServerStdio({
    command: process.execPath,
    args: [SERVER],
    name: 'demo',
    stderr: 'ignore',
    // A loaded CI machine can take seconds to start Node and the SDK; these tests are not about the start's limit.
    connectTimeoutMs: 25_000,
    ...options,
  });
}

/** What the server ran, asked of the server itself through its `calls` tool. */
async function serverCalls(server: MCPServerStdio): Promise<string[]> {
  const calls = (await server.tools()).find((tool) => tool.name === 'calls');
  if (!calls) throw new Error('the demo server has no calls tool');
  const result = await calls.execute({}, { signal: new AbortController().signal } as never);
  return JSON.parse(String(result));
}

function outputs(model: MockModel, request: number) {
  return model.requests[request]?.input.filter((item) => item.type === 'function_call_output');
}

describe('MCPServerStdio: a real MCP server as a child process', () => {
  test('its tools are offered with their own schemas, filtered, and a call runs on the server', async () => {
    await using server = demo({ toolFilter: { deny: ['crash', 'enable_weather'] } });
    await server.connect();
    const model = new MockModel([
      MockModel.toolCall('add', { a: 2, b: 3 }, { callId: 'c1' }),
      MockModel.text('5'),
    ]);
    const agent = new Agent({ name: 'Calc', toolSources: [server], model });
    const result = await run(agent, 'what is 2 + 3?');
    expect(result.finalOutput).toBe('5');
    expect(outputs(model, 1)).toEqual([{ type: 'function_call_output', callId: 'c1', output: '5' }]);
    const offered = model.requests[0]?.tools ?? [];
    expect(offered.map((tool) => tool.name).sort()).toEqual([
      'add',
      'calls',
      'lookup_order',
      'refund',
      'wait_forever',
    ]);
    expect(offered.find((tool) => tool.name === 'add')?.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(await serverCalls(server)).toEqual(['add']);
  });

  test('allow keeps only the listed tools', async () => {
    await using server = demo({ toolFilter: { allow: ['add', 'calls'] } });
    await server.connect();
    expect((await server.tools()).map((tool) => tool.name)).toEqual(['add', 'calls']);
  });

  test('invalid arguments go back to the model as an error output and never reach the server', async () => {
    await using server = demo();
    await server.connect();
    const model = new MockModel([
      MockModel.toolCall('add', { a: 'two', b: 3 }, { callId: 'c1' }),
      MockModel.text('sorry'),
    ]);
    await run(new Agent({ name: 'Calc', toolSources: [server], model }), 'add');
    expect(outputs(model, 1)?.[0]?.output).toMatch(/Invalid arguments for tool "add": a:/);
    expect(await serverCalls(server)).toEqual([]);
  });

  test("a tool's reported error (isError) reaches the model as an error output", async () => {
    await using server = demo();
    const model = new MockModel([
      MockModel.toolCall('lookup_order', { orderId: 'missing' }, { callId: 'c1' }),
      MockModel.text('not found'),
    ]);
    await run(new Agent({ name: 'Orders', toolSources: [server], model }), 'find it');
    expect(outputs(model, 1)?.[0]?.output).toMatch(
      /An error occurred while running the tool.*No order missing/,
    );
  });

  test('approvals apply: the run pauses, survives serialization, and the approved call runs once on the server', async () => {
    await using server = demo({ needsApproval: ['refund'] });
    await server.connect();
    const model = new MockModel([
      MockModel.turn(
        MockModel.toolCall('lookup_order', { orderId: 'A1' }, { callId: 'c1' }),
        MockModel.toolCall('refund', { orderId: 'A1' }, { callId: 'c2' }),
      ),
      MockModel.text('Refunded.'),
    ]);
    const agent = new Agent({ name: 'Orders', toolSources: [server], model });
    const first = await run(agent, 'refund A1');
    expect(first.interruptions.map((item) => item.rawItem.name)).toEqual(['refund']);
    expect(await serverCalls(server)).toEqual(['lookup_order A1']);
    const state = RunState.fromString(agent, first.state.toString());
    state.approve(state.getInterruptions()[0]!);
    const second = await run(agent, state);
    expect(second.finalOutput).toBe('Refunded.');
    expect(await serverCalls(server)).toEqual(['lookup_order A1', 'refund A1']);
  });

  test('a run owns a server it started: started on first use, closed when the run ends', async () => {
    const server = demo();
    let during: boolean | undefined;
    const probe = tool({
      name: 'probe',
      description: 'Reports whether the server is up',
      parameters: z.object({}),
      execute: () => {
        during = server.connected;
        return 'ok';
      },
    });
    const model = new MockModel([MockModel.toolCall('probe', {}), MockModel.text('done')]);
    expect(server.connected).toBe(false);
    await run(new Agent({ name: 'A', tools: [probe], toolSources: [server], model }), 'probe');
    expect(during).toBe(true);
    expect(server.connected).toBe(false);
    await server.close();
    await server.close();
  });

  test('a realtime session owns a server it started: started for its configuration, closed with the session', async () => {
    const server = demo();
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(new Agent({ name: 'Voice', toolSources: [server] }), { model });
    await session.connect();
    expect(server.connected).toBe(true);
    expect(model.connections[0]?.config.tools?.map((t) => t.name)).toContain('add');
    await session.close();
    expect(server.connected).toBe(false);
    await session.close();
  });

  test("a list change during a realtime session updates the provider's tools", async () => {
    await using server = demo();
    await server.connect();
    const model = new MockRealtimeModel({ capabilities: { autoToolResponseGeneration: false } });
    model.respondWith({
      output: [{ type: 'function_call', name: 'enable_weather', arguments: {}, callId: 'v1' }],
    });
    await using session = new RealtimeSession(new Agent({ name: 'Voice', toolSources: [server] }), { model });
    await session.connect();
    expect(model.connections[0]?.config.tools?.map((t) => t.name)).not.toContain('weather');
    session.sendMessage('enable weather');
    const updated = () =>
      model.commands.some(
        (command) =>
          command.type === 'updateSession' && (command.config.tools ?? []).some((t) => t.name === 'weather'),
      );
    // The change travels from the server process on its own: wait for it (the test's timeout bounds the wait).
    while (!updated()) await new Promise((r) => setImmediate(r));
    expect(model.connections[0]?.config.tools?.map((t) => t.name)).toContain('weather');
  });

  test('the app owns a server it connected (await using): it stays up across runs until the scope ends', async () => {
    let kept: MCPServerStdio | undefined;
    {
      await using server = demo();
      kept = server;
      await server.connect();
      const model = new MockModel([MockModel.text('a'), MockModel.text('b')]);
      const agent = new Agent({ name: 'A', toolSources: [server], model });
      await run(agent, 'one');
      await run(agent, 'two');
      expect(server.connected).toBe(true);
    }
    expect(kept.connected).toBe(false);
  });

  test('a crashed server surfaces a typed error in the call it cut and is started again on its next use', async () => {
    await using server = demo();
    await server.connect();
    const model = new MockModel([
      MockModel.toolCall('crash', {}, { callId: 'c1' }),
      MockModel.toolCall('add', { a: 1, b: 2 }, { callId: 'c2' }),
      MockModel.text('3'),
    ]);
    const result = await run(new Agent({ name: 'A', toolSources: [server], model }), 'crash then add');
    expect(outputs(model, 1)?.[0]?.output).toMatch(/MCP server "demo" stopped unexpectedly/);
    expect(outputs(model, 2)?.[1]).toEqual({ type: 'function_call_output', callId: 'c2', output: '3' });
    expect(result.finalOutput).toBe('3');
  });

  test('with restart: false a crashed server fails its later calls with mcp_server_crashed, without a hang', async () => {
    await using server = demo({ restart: false });
    await server.connect();
    const tools = await server.tools();
    const signal = new AbortController().signal;
    const crash = tools.find((tool) => tool.name === 'crash')!;
    await expect(crash.execute({}, { signal } as never)).rejects.toMatchObject({
      code: 'mcp_server_crashed',
    });
    const add = tools.find((tool) => tool.name === 'add')!;
    await expect(add.execute({ a: 1, b: 1 }, { signal } as never)).rejects.toBeInstanceOf(
      MCPServerClosedError,
    );
  });

  test('a server that cannot start fails the run with MCPConnectError', async () => {
    const server = new MCPServerStdio({
      command: '/nonexistent/mcp-server',
      name: 'ghost',
      stderr: 'ignore',
    });
    const agent = new Agent({
      name: 'A',
      toolSources: [server],
      model: new MockModel([MockModel.text('x')]),
    });
    const failure = run(agent, 'hi');
    await expect(failure).rejects.toBeInstanceOf(MCPConnectError);
    await expect(failure).rejects.toMatchObject({ code: 'mcp_connect_failed', server: 'ghost' });
    expect(server.connected).toBe(false);
  });

  test('a timeout on the Runner clock cancels the call on the server and tells the model', async () => {
    await using server = demo({ timeoutMs: 5_000 });
    await server.connect();
    const clock = new ManualClock();
    const model = new MockModel([
      MockModel.toolCall('wait_forever', {}, { callId: 'c1' }),
      MockModel.text('too slow'),
    ]);
    const running = new Runner({ clock }).run(new Agent({ name: 'A', toolSources: [server], model }), 'wait');
    while (!(await serverCalls(server)).includes('wait_forever')) await new Promise((r) => setImmediate(r));
    clock.advance(5_000);
    const result = await running;
    expect(result.finalOutput).toBe('too slow');
    expect(outputs(model, 1)?.[0]?.output).toMatch(/did not finish within 5000 ms/);
    expect(await serverCalls(server)).toContain('wait_forever cancelled');
  });

  test('aborting the run cancels the call on the server', async () => {
    await using server = demo();
    await server.connect();
    const controller = new AbortController();
    const model = new MockModel([MockModel.toolCall('wait_forever', {})]);
    const running = run(new Agent({ name: 'A', toolSources: [server], model }), 'wait', {
      signal: controller.signal,
    });
    while (!(await serverCalls(server)).includes('wait_forever')) await new Promise((r) => setImmediate(r));
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(AbortError);
    while (!(await serverCalls(server)).includes('wait_forever cancelled'))
      await new Promise((r) => setImmediate(r));
  });

  test('a tool list change announced by the server reaches the next model call of the same run', async () => {
    await using server = demo();
    await server.connect();
    const model = new MockModel([
      MockModel.toolCall('enable_weather', {}, { callId: 'c1' }),
      MockModel.toolCall('weather', { city: 'Porto' }, { callId: 'c2' }),
      MockModel.text('Sunny.'),
    ]);
    await run(new Agent({ name: 'A', toolSources: [server], model }), 'weather?');
    expect(model.requests[0]?.tools.map((tool) => tool.name)).not.toContain('weather');
    expect(model.requests[1]?.tools.map((tool) => tool.name)).toContain('weather');
    expect(outputs(model, 2)?.[1]).toEqual({
      type: 'function_call_output',
      callId: 'c2',
      output: 'Sunny in Porto',
    });
  });

  test("a server's tool named like one of the agent's fails clearly; toolNamePrefix sets them apart", async () => {
    await using server = demo();
    await server.connect();
    const add = tool({
      name: 'add',
      description: 'Local add',
      parameters: z.object({}),
      execute: () => 'local',
    });
    const clash = new Agent({ name: 'A', tools: [add], toolSources: [server], model: new MockModel([]) });
    await expect(run(clash, 'hi')).rejects.toMatchObject({ code: 'tool_name_conflict' });

    await using prefixed = demo({ toolNamePrefix: 'demo_' });
    const model = new MockModel([
      MockModel.toolCall('demo_add', { a: 1, b: 2 }, { callId: 'c1' }),
      MockModel.text('3'),
    ]);
    await run(new Agent({ name: 'A', tools: [add], toolSources: [prefixed], model }), 'add');
    expect(outputs(model, 1)?.[0]?.output).toBe('3');
  });

  test('a server nobody connected or holds is not started by a listing', async () => {
    const server = demo();
    await expect(server.tools()).rejects.toMatchObject({ code: 'mcp_server_closed' });
    expect(server.connected).toBe(false);
  });

  test('bad options fail before anything starts', () => {
    expect(() => new MCPServerStdio({ command: 'node', arg: [] } as never)).toThrow(/Did you mean 'args'/);
    expect(() => new MCPServerStdio({ command: '' })).toThrow(/command must name/);
    expect(() => demo({ timeoutMs: -1 })).toThrow(/timeoutMs must be a positive number/);
    expect(() => demo({ toolFilter: { allow: 'add' } as never })).toThrow(/toolFilter/);
  });
});
