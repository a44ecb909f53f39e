import {
  MODEL_SPECIFICATION_VERSION,
  type ModelRequest,
  type ModelStreamEvent,
  UserError,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockModel, MockModelProvider, MockScriptError } from '@parley/mock';
import { describe, expect, test } from 'vitest';

function request(
  input: ModelRequest['input'] = [{ type: 'message', role: 'user', content: 'hi' }],
): ModelRequest {
  return { input, tools: [], modelSettings: {} };
}

async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('MockModel', () => {
  test('declares itself like any provider', () => {
    const model = new MockModel();
    expect(model.specificationVersion).toBe(MODEL_SPECIFICATION_VERSION);
    expect(model.provider).toBe('mock');
    expect(model.capabilities).toEqual({
      streaming: true,
      tools: true,
      structuredOutput: true,
      parallelToolCalls: true,
    });
    expect(
      new MockModel([], { capabilities: { parallelToolCalls: false } }).capabilities.parallelToolCalls,
    ).toBe(false);
  });

  test('answers in script order and records each request', async () => {
    const model = new MockModel([MockModel.text('one'), MockModel.json({ n: 2 })]);
    const input = [{ type: 'message' as const, role: 'user' as const, content: 'first' }];
    const first = await model.getResponse(request(input));
    input.push({ type: 'message', role: 'user', content: 'mutated later' });
    const second = await model.getResponse(request());
    expect(first.output).toEqual([{ type: 'message', role: 'assistant', content: 'one' }]);
    expect(second.output).toEqual([{ type: 'message', role: 'assistant', content: '{"n":2}' }]);
    expect(first.responseId).toBe('mock_resp_1');
    expect(model.requests[0]?.input).toEqual([{ type: 'message', role: 'user', content: 'first' }]);
    expect(model.calls.map((call) => [call.index, call.streamed, call.status])).toEqual([
      [0, false, 'answered'],
      [1, false, 'answered'],
    ]);
    expect(model.callCount).toBe(2);
    expect(model.remaining).toBe(0);
    expect(() => model.assertComplete()).not.toThrow();
  });

  test('function calls get conversation-wide ids unless the script fixes one', async () => {
    const model = new MockModel([
      MockModel.turn(
        MockModel.toolCall('a', { x: 1 }),
        MockModel.toolCall('b', 'raw {'),
        MockModel.handoff('Billing Team'),
      ),
      MockModel.toolCall('c', {}, { callId: 'mine' }),
    ]);
    const first = await model.getResponse(
      request([{ type: 'function_call', callId: 'call_1', name: 'old', arguments: '{}' }]),
    );
    expect(first.output).toEqual([
      { type: 'function_call', callId: 'call_2', name: 'a', arguments: '{"x":1}' },
      { type: 'function_call', callId: 'call_3', name: 'b', arguments: 'raw {' },
      { type: 'function_call', callId: 'call_4', name: 'transfer_to_billing_team', arguments: '{}' },
    ]);
    expect((await model.getResponse(request())).output).toEqual([
      { type: 'function_call', callId: 'mine', name: 'c', arguments: '{}' },
    ]);
  });

  test('script functions see the request; usage is estimated unless scripted', async () => {
    const model = new MockModel([
      (req, call) => MockModel.text(`call ${call} saw ${req.input.length} item(s)`),
      { ...MockModel.text('fixed'), usage: { inputTokens: 100, outputTokens: 1, totalTokens: 101 } },
    ]);
    const first = await model.getResponse(request());
    expect(first.output[0]).toMatchObject({ content: 'call 0 saw 1 item(s)' });
    expect(first.usage).toEqual({ requests: 1, inputTokens: 1, outputTokens: 5, totalTokens: 6 });
    expect((await model.getResponse(request())).usage).toEqual({
      requests: 1,
      inputTokens: 100,
      outputTokens: 1,
      totalTokens: 101,
    });
  });

  test('a scripted error rejects the call', async () => {
    const model = new MockModel([MockModel.error(new Error('rate limited'))]);
    await expect(model.getResponse(request())).rejects.toThrow('rate limited');
    expect(model.calls[0]?.status).toBe('failed');
    expect(model.abortedCalls).toBe(0);
  });

  test('assertComplete and a used-up script fail with MockScriptError', async () => {
    const model = new MockModel([MockModel.text('a'), MockModel.text('b')]);
    await model.getResponse(request());
    expect(() => model.assertComplete()).toThrow(MockScriptError);
    expect(() => model.assertComplete()).toThrow(expect.objectContaining({ code: 'mock_script_incomplete' }));
    await model.getResponse(request());
    await expect(model.getResponse(request())).rejects.toThrow(
      expect.objectContaining({ code: 'mock_script_exhausted', message: expect.stringContaining('call #3') }),
    );
    model.enqueue(MockModel.text('c'));
    expect((await model.getResponse(request())).output[0]).toMatchObject({ content: 'c' });
  });

  test('a delay waits on the injected clock', async () => {
    const clock = new ManualClock();
    const model = new MockModel([MockModel.delay(500, MockModel.text('late'))], { clock });
    let answered = false;
    const pending = model.getResponse(request()).then((response) => {
      answered = true;
      return response;
    });
    await clock.advance(499);
    expect(answered).toBe(false);
    await clock.advance(1);
    expect((await pending).output[0]).toMatchObject({ content: 'late' });
    expect(clock.pendingTimers).toBe(0);
  });

  test('an abort during a delay rejects with the reason, is counted, and leaves no timer', async () => {
    const clock = new ManualClock();
    const model = new MockModel([MockModel.delay(500, MockModel.text('never'))], { clock });
    const controller = new AbortController();
    const pending = model.getResponse(request(), { signal: controller.signal });
    await flushMicrotasks();
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    expect(model.abortedCalls).toBe(1);
    expect(model.calls[0]?.status).toBe('aborted');
    expect(clock.pendingTimers).toBe(0);
  });

  test('an already aborted signal rejects at once without using the script', async () => {
    const model = new MockModel([MockModel.text('kept')]);
    await expect(
      model.getResponse(request(), { signal: AbortSignal.abort(new Error('gone')) }),
    ).rejects.toThrow('gone');
    expect(model.abortedCalls).toBe(1);
    expect(model.remaining).toBe(1);
  });

  test('streams text in small deltas, then response_done with the whole response', async () => {
    const model = new MockModel([MockModel.turn(MockModel.text('Hello world'), MockModel.toolCall('t'))], {
      chunkSize: 5,
    });
    const events = await collect(model.streamResponse(request()));
    expect(events.map((event) => (event.type === 'text_delta' ? event.delta : event.type))).toEqual([
      'response_started',
      'Hello',
      ' worl',
      'd',
      'response_done',
    ]);
    const done = events.at(-1);
    expect(done?.type === 'response_done' && done.response.output).toHaveLength(2);
    expect(model.calls[0]?.streamed).toBe(true);
    expect(model.calls[0]?.status).toBe('answered');
  });

  test('a stream aborted between deltas throws the reason and counts the abort', async () => {
    const model = new MockModel([MockModel.text('a long answer here')], { chunkSize: 2 });
    const controller = new AbortController();
    const seen: string[] = [];
    const consume = async () => {
      for await (const event of model.streamResponse(request(), { signal: controller.signal })) {
        if (event.type === 'text_delta') {
          seen.push(event.delta);
          controller.abort(new Error('enough'));
        }
      }
    };
    await expect(consume()).rejects.toThrow('enough');
    expect(seen).toEqual(['a ']);
    expect(model.abortedCalls).toBe(1);
  });

  test('a consumer that stops early abandons the call (counted as aborted)', async () => {
    const model = new MockModel([MockModel.text('abcdefgh')], { chunkSize: 1 });
    for await (const event of model.streamResponse(request())) {
      if (event.type === 'text_delta') break;
    }
    expect(model.calls[0]?.status).toBe('aborted');
    expect(model.abortedCalls).toBe(1);
  });

  test('recordRequests: false keeps no history (for benchmarks)', async () => {
    const model = new MockModel([MockModel.text('x')], { recordRequests: false });
    await model.getResponse(request());
    expect(model.calls).toEqual([]);
    expect(model.callCount).toBe(1);
  });
});

describe('MockModelProvider', () => {
  test('resolves names and a default; unknown names are a UserError', () => {
    const fast = new MockModel();
    const fallback = new MockModel();
    const provider = new MockModelProvider({ models: { fast }, defaultModel: fallback });
    expect(provider.getModel('fast')).toBe(fast);
    expect(provider.getModel()).toBe(fallback);
    expect(() => provider.getModel('slow')).toThrow(UserError);
    expect(() => provider.getModel('slow')).toThrow(/Known: fast/);
    expect(() => new MockModelProvider().getModel()).toThrow(
      expect.objectContaining({ code: 'model_not_found' }),
    );
  });
});
