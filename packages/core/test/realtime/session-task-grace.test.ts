import { deferred, EventRecorder } from '@parley/conformance';
import { Agent, CANCELLED_TASK_GRACE_MS, RealtimeSession, tool } from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

/** A tool that ignores its signal: it returns only when the test releases it. */
function stubbornTool(started: { resolve(): void }, release: Promise<string>) {
  return tool({
    name: 'stubborn',
    description: 'Ignores cancellation',
    parameters: z.object({}),
    execute: async () => {
      started.resolve();
      return await release;
    },
  });
}

describe('a tool that ignores its signal cannot hold close() or a reconnect for longer than the grace', () => {
  test('close() waits for it at most CANCELLED_TASK_GRACE_MS, then closes with a warning; its late output is not sent', async () => {
    const clock = new ManualClock();
    const model = new MockRealtimeModel({ clock, capabilities: { autoToolResponseGeneration: false } });
    const started = deferred();
    const release = deferred<string>();
    const session = new RealtimeSession(
      new Agent({ name: 'A', tools: [stubbornTool(started, release.promise)] }),
      {
        model,
        clock,
      },
    );
    const log = new EventRecorder(session);
    model.respondWith({ output: [{ type: 'function_call', name: 'stubborn' }] });
    await session.connect();
    session.sendMessage('go');
    await started.promise;
    let closed = false;
    const closing = session.close().then(() => {
      closed = true;
    });
    await clock.advance(CANCELLED_TASK_GRACE_MS - 1);
    expect(closed).toBe(false);
    await clock.advance(1);
    await closing;
    expect(model.connection.closeCalls).toBe(1);
    expect(log.of('warning')).toContainEqual(expect.objectContaining({ code: 'tasks_abandoned' }));
    release.resolve('finished after close');
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toHaveLength(0);
    expect(log.of('tool_done')).toHaveLength(0);
    expect(clock.pendingTimers).toBe(0);
  });

  test('a reconnect waits for it at most CANCELLED_TASK_GRACE_MS, then goes on', async () => {
    const clock = new ManualClock();
    const model = new MockRealtimeModel({ clock, capabilities: { autoToolResponseGeneration: false } });
    const started = deferred();
    const release = deferred<string>();
    const session = new RealtimeSession(
      new Agent({ name: 'A', tools: [stubbornTool(started, release.promise)] }),
      {
        model,
        clock,
        reconnect: { initialDelayMs: 0, jitter: 0 },
      },
    );
    const log = new EventRecorder(session);
    model.respondWith({ output: [{ type: 'function_call', name: 'stubborn' }] });
    await session.connect();
    session.sendMessage('go');
    await started.promise;
    model.connection.disconnect();
    await clock.advance(CANCELLED_TASK_GRACE_MS);
    await log.waitFor('reconnected');
    expect(session.status).toBe('connected');
    release.resolve('late');
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toHaveLength(0);
    await session.close();
  });
});
