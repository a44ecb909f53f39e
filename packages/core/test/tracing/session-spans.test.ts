import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession } from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel } from '@parley/mock';
import { afterEach, describe, expect, test } from 'vitest';
import { lookup } from '../realtime/fixtures.js';
import { memoryTracing } from './spans.js';

const SECRET_SPEECH = 'SECRET-SPOKEN-REPLY';
const SECRET_QUERY = 'SECRET-QUERY';

describe('realtime session tracing', () => {
  let tracing: ReturnType<typeof memoryTracing> | undefined;
  afterEach(() => {
    tracing?.close();
    tracing = undefined;
  });

  test('a scripted voice turn: a session span with response, tool call, interruption and reconnect spans', async () => {
    tracing = memoryTracing();
    const clock = new ManualClock();
    const model = new MockRealtimeModel({ clock });
    const session = new RealtimeSession(new Agent({ name: 'Voice', tools: [lookup] }), {
      model,
      clock,
      reconnect: { jitter: 0 },
    });
    const log = new EventRecorder(session);
    await session.connect();

    // A response that calls a tool, then the follow-up that speaks; the listener hears 200 ms of it.
    model.respondWith({
      output: [{ type: 'function_call', name: 'lookup', arguments: { q: SECRET_QUERY }, callId: 'call_1' }],
      usage: { inputTokens: 120, outputTokens: 14 },
    });
    model.respondWith({
      output: [{ type: 'message', text: SECRET_SPEECH, audio: { ms: 500 }, pauseAfterChunks: 2 }],
      usage: { inputTokens: 151, outputTokens: 37 },
    });
    await session.generateResponse();
    for (let i = 0; i < 5; i++) await flushMicrotasks();
    expect(log.of('tool_done')).toHaveLength(1);
    expect(log.of('audio')).not.toHaveLength(0);
    await clock.advance(5000);
    session.interrupt();
    await flushMicrotasks();
    const [interrupted] = log.of('audio_interrupted');
    expect(interrupted?.heardMs).toBe(200);

    model.connection.disconnect('network down');
    for (let i = 0; i < 3; i++) await flushMicrotasks();
    await clock.advance(60_000);
    for (let i = 0; i < 5; i++) await flushMicrotasks();
    expect(log.of('reconnected')).toHaveLength(1);
    await session.close();

    expect(tracing.tree()).toEqual([
      {
        name: 'parley.realtime.session',
        children: [
          { name: 'realtime.response', children: [{ name: 'execute_tool lookup', children: [] }] },
          { name: 'realtime.response', children: [{ name: 'parley.interruption', children: [] }] },
          { name: 'parley.reconnect', children: [] },
        ],
      },
    ]);
    const [first, second] = tracing.named('realtime.response');
    expect(first?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.system': 'mock',
      'gen_ai.agent.name': 'Voice',
      'parley.response.status': 'completed',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 14,
    });
    // A cancelled response still reports what it used.
    expect(second?.attributes).toMatchObject({
      'parley.response.status': 'cancelled',
      'gen_ai.usage.input_tokens': 151,
      'gen_ai.usage.output_tokens': 37,
    });
    expect(tracing.named('execute_tool lookup')[0]?.attributes).toMatchObject({
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': 'call_1',
      'parley.tool.status': 'completed',
    });
    expect(tracing.named('parley.interruption')[0]?.attributes).toMatchObject({
      'gen_ai.response.id': interrupted?.responseId,
      'parley.interruption.heard_ms': 200,
    });
    expect(tracing.named('parley.reconnect')[0]?.attributes).toMatchObject({
      'parley.reconnect.attempts': 1,
    });
    expect(tracing.spans().every((span) => span.ended)).toBe(true);
    const text = tracing.text();
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('found');
  });
});
