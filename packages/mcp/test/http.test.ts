import { Agent, run } from '@parley/core';
import { MCPServerSse, MCPServerStreamableHttp } from '@parley/mcp';
import { MockModel } from '@parley/mock';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startDemoHttp } from './fixtures/demo-http.js';

const TOKEN = 'Bearer SECRET-TOKEN-123';

let http: Awaited<ReturnType<typeof startDemoHttp>>;
beforeEach(async () => {
  http = await startDemoHttp();
});
afterEach(async () => {
  await http.close();
});

function outputs(model: MockModel, request: number) {
  return model.requests[request]?.input.filter((item) => item.type === 'function_call_output');
}

describe('MCPServerStreamableHttp: a real MCP server over HTTP on loopback', () => {
  test('its tools run with the headers given; the list is cached until the server announces a change', async () => {
    await using server = new MCPServerStreamableHttp({ url: http.url, headers: { Authorization: TOKEN } });
    await server.connect();
    const model = new MockModel([
      MockModel.toolCall('add', { a: 20, b: 22 }, { callId: 'c1' }),
      MockModel.toolCall('add', { a: 1, b: 1 }, { callId: 'c2' }),
      MockModel.text('42'),
      MockModel.toolCall('weather', { city: 'Lisbon' }, { callId: 'c3' }),
      MockModel.text('Sunny.'),
    ]);
    const agent = new Agent({ name: 'A', toolSources: [server], model });
    await run(agent, 'add twice');
    expect(outputs(model, 1)?.[0]?.output).toBe('42');
    expect(model.requests[2]?.tools.map((tool) => tool.name)).not.toContain('weather');
    // Three model calls, one listing.
    expect(http.seen.methods.filter((method) => method === 'tools/list')).toHaveLength(1);

    // Over HTTP the announcement travels on its own stream: wait for it, then the next run sees the new tool.
    const changed = new Promise<void>((resolve) => server.onToolsChanged(resolve));
    const enable = server.cachedTools.find((tool) => tool.name === 'enable_weather')!;
    await enable.execute({}, { signal: new AbortController().signal } as never);
    await changed;
    const result = await run(agent, 'weather in Lisbon?');
    expect(result.finalOutput).toBe('Sunny.');
    expect(model.requests[3]?.tools.map((tool) => tool.name)).toContain('weather');
    expect(outputs(model, 4)?.[0]).toEqual({
      type: 'function_call_output',
      callId: 'c3',
      output: 'Sunny in Lisbon',
    });
    expect(http.seen.methods.filter((method) => method === 'tools/list')).toHaveLength(2);
    expect(http.seen.authorization).toEqual(new Set([TOKEN]));
  });

  test('a server that is not there fails with a typed error that shows no secret', async () => {
    await http.close();
    const server = new MCPServerStreamableHttp({
      url: `${http.url}?key=SECRET-QUERY`,
      headers: { Authorization: TOKEN },
      connectTimeoutMs: 5_000,
    });
    const failure = server.connect();
    await expect(failure).rejects.toMatchObject({ code: 'mcp_connect_failed' });
    const error = await failure.catch((e: unknown) => e);
    const shown = JSON.stringify({ message: (error as Error).message, ...(error as object) });
    expect(shown).not.toContain('SECRET');
    await server.close();
    http = await startDemoHttp();
  });

  test('bad options fail before connecting', () => {
    expect(() => new MCPServerStreamableHttp({ url: 'ftp://x' })).toThrow(/http\(s\) URL/);
    expect(() => new MCPServerStreamableHttp({ url: http.url, header: {} } as never)).toThrow(
      /Did you mean 'headers'/,
    );
  });
});

describe('MCPServerSse: servers on the older HTTP+SSE transport', () => {
  test('its tools run like any other', async () => {
    await using server = new MCPServerSse({ url: http.sseUrl, headers: { Authorization: TOKEN } });
    const model = new MockModel([
      MockModel.toolCall('add', { a: 1, b: 2 }, { callId: 'c1' }),
      MockModel.text('3'),
    ]);
    await run(new Agent({ name: 'A', toolSources: [server], model }), 'add');
    expect(outputs(model, 1)?.[0]?.output).toBe('3');
    expect(http.seen.authorization).toEqual(new Set([TOKEN]));
  });
});
