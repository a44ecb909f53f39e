/** The mock's script checks as a test author meets them through a RealtimeSession. */
import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession, tool } from '@parley/core';
import { flushMicrotasks, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

describe('a session on MockRealtimeModel', () => {
  test('a reply nobody scripted surfaces as an error event at once, and assertComplete throws it', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(new Agent({ name: 'A' }), { model });
    const log = new EventRecorder(session);
    await session.connect();
    session.sendMessage('hello?');
    await flushMicrotasks();
    expect(log.of('error').map((e) => e.code)).toEqual(['mock_script_exhausted']);
    expect(() => model.assertComplete()).toThrow(/no script is queued/);
    await session.close();
  });

  test('by default the session requests the tool follow-up itself (as on OpenAI), and the script can check the output first', async () => {
    const balance = tool({
      name: 'balance',
      description: 'the balance',
      parameters: z.object({}),
      execute: () => '42',
    });
    const model = new MockRealtimeModel({ strict: true }).respondWith(
      {
        output: [
          { type: 'expect_input', userText: 'my balance?' },
          { type: 'function_call', name: 'balance' },
        ],
      },
      {
        output: [
          {
            type: 'expect_input',
            description: 'the balance came back',
            check: ({ conversation }) =>
              conversation.some((item) => item.type === 'function_call_output' && item.output === '42'),
          },
          { type: 'message', text: 'You have 42.' },
        ],
      },
    );
    const session = new RealtimeSession(new Agent({ name: 'A', tools: [balance] }), { model });
    const log = new EventRecorder(session);
    await session.connect();
    session.sendMessage('my balance?');
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type === 'createResponse')).toHaveLength(2);
    expect(log.of('error')).toEqual([]);
    model.assertComplete();
    await session.close();
  });
});
