import { fileURLToPath } from 'node:url';
import type { AnyFunctionTool, TimerHandle } from '@parley/core';
import { MCPRestartLimitError, MCPServerStdio, type MCPServerStdioOptions } from '@parley/mcp';
import { flushMicrotasks, ManualClock } from '@parley/mock';
import { describe, expect, test } from 'vitest';

const SERVER = fileURLToPath(new URL('./fixtures/demo-server.mjs', import.meta.url));

/** A manual clock that records the delay of every timer set on it. */
class RecordingClock extends ManualClock {
  readonly delays: number[] = [];

  override setTimeout(callback: () => void, ms: number): TimerHandle {
    this.delays.push(ms);
    return super.setTimeout(callback, ms);
  }
}

function demo(clock: ManualClock, options: Partial<MCPServerStdioOptions> = {}) {
  return new MCPServerStdio({
    command: process.execPath,
    args: [SERVER],
    name: 'demo',
    stderr: 'ignore',
    connectTimeoutMs: 25_000,
    clock,
    restart: { maxAttempts: 2, initialDelayMs: 100, maxDelayMs: 150 },
    ...options,
  });
}

const context = () => ({ signal: new AbortController().signal }) as never;

async function toolsOf(server: MCPServerStdio): Promise<Record<string, AnyFunctionTool>> {
  return Object.fromEntries((await server.tools()).map((tool) => [tool.name, tool]));
}

/** Lets the call reach its backoff wait (no I/O happens before it). */
async function untilTimerSet(clock: ManualClock): Promise<void> {
  for (let round = 0; round < 50 && clock.pendingTimers === 0; round += 1) await flushMicrotasks();
  expect(clock.pendingTimers).toBe(1);
}

describe('MCPServerStdio restarts a crashed server with bounded backoff', () => {
  test('the restart waits its backoff on the clock, then the call runs on a new process', async () => {
    const clock = new RecordingClock();
    await using server = demo(clock);
    await server.connect();
    const tools = await toolsOf(server);
    await expect(tools.crash!.execute({}, context())).rejects.toMatchObject({ code: 'mcp_server_crashed' });
    expect(server.connected).toBe(false);

    const call = tools.add!.execute({ a: 1, b: 2 }, context());
    await untilTimerSet(clock);
    await clock.advance(99);
    expect(server.connected).toBe(false);
    await clock.advance(1);
    await expect(call).resolves.toBe('3');
    expect(server.connected).toBe(true);
    expect(clock.delays).toEqual([100]);
  });

  test('restarts in a row wait longer each time, up to the cap, and the last gives up with a typed error', async () => {
    const clock = new RecordingClock();
    await using server = demo(clock);
    await server.connect();
    const tools = await toolsOf(server);
    const crashed = { code: 'mcp_server_crashed' };
    await expect(tools.crash!.execute({}, context())).rejects.toMatchObject(crashed);

    for (const wait of [100, 150]) {
      const again = tools.crash!.execute({}, context());
      await untilTimerSet(clock);
      await clock.advance(wait);
      await expect(again).rejects.toMatchObject(crashed);
    }

    const failure = await Promise.resolve(tools.add!.execute({ a: 1, b: 2 }, context())).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(MCPRestartLimitError);
    expect(failure).toMatchObject({ code: 'mcp_restart_limit', server: 'demo', attempts: 2 });
    expect(clock.pendingTimers).toBe(0);
    expect(server.connected).toBe(false);
    expect(clock.delays).toEqual([100, 150]);

    // The app starts it again on purpose: at once, with a fresh budget.
    await server.connect();
    await expect(tools.add!.execute({ a: 2, b: 2 }, context())).resolves.toBe('4');
    expect(clock.delays).toEqual([100, 150]);
  });

  test('an answered request resets the count, and close() ends a backoff wait at once', async () => {
    const clock = new RecordingClock();
    const server = demo(clock);
    await server.connect();
    const tools = await toolsOf(server);
    await expect(tools.crash!.execute({}, context())).rejects.toMatchObject({ code: 'mcp_server_crashed' });
    const restarted = tools.add!.execute({ a: 1, b: 1 }, context());
    await untilTimerSet(clock);
    await clock.advance(100);
    await expect(restarted).resolves.toBe('2');
    await expect(tools.crash!.execute({}, context())).rejects.toMatchObject({ code: 'mcp_server_crashed' });

    const waiting = tools.add!.execute({ a: 1, b: 1 }, context());
    await untilTimerSet(clock);
    expect(clock.delays).toEqual([100, 100]);
    await server.close();
    await expect(waiting).rejects.toMatchObject({ code: 'mcp_server_closed' });
    expect(clock.pendingTimers).toBe(0);
  });

  test('restart options are checked before anything starts', () => {
    const clock = new ManualClock();
    expect(() => demo(clock, { restart: { maxAttempts: 0 } })).toThrow(/restart.maxAttempts/);
    expect(() => demo(clock, { restart: { maxAtempts: 3 } as never })).toThrow(
      /Unknown option 'restart.maxAtempts'/,
    );
    expect(() => demo(clock, { clock: {} as never })).toThrow(/clock must implement/);
  });
});
