import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { APICallError } from '@ai-sdk/provider';
import { AISdkAPIError, AISdkModel, UnsupportedSpecificationVersionError } from '@parley/ai-sdk';
import { Agent, Runner, tool, UserError } from '@parley/core';
import { MockLanguageModelV3, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { collect, streamOf, textParts, until, usage } from './helpers.js';

function generated(
  content: LanguageModelV4GenerateResult['content'],
  id = 'resp_g',
): LanguageModelV4GenerateResult {
  return {
    content,
    finishReason: {
      unified: content.some((c) => c.type === 'tool-call') ? 'tool-calls' : 'stop',
      raw: undefined,
    },
    usage: usage(20, 6, 8),
    response: { id },
    warnings: [],
  };
}

const weather = tool({
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}`,
});

describe('AISdkModel on the AI SDK mock models', () => {
  test('a Runner turn with two parallel tool calls, then the answer; the prompt carries calls and outputs back', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: [
        generated([
          { type: 'text', text: 'Checking both.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Paris"}' },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather', input: '{"city":"Oslo"}' },
        ]),
        generated([{ type: 'text', text: 'Sunny in both.' }], 'resp_2'),
      ],
    });
    const agent = new Agent({
      name: 'Forecaster',
      instructions: 'Be brief.',
      tools: [weather],
      model: new AISdkModel(mock),
      modelSettings: { temperature: 0.2, toolChoice: 'auto' },
    });
    const result = await new Runner().run(agent, 'Weather in Paris and Oslo?');
    expect(result.finalOutput).toBe('Sunny in both.');
    expect(result.usage).toMatchObject({ requests: 2, inputTokens: 40, outputTokens: 12, totalTokens: 52 });
    expect(result.usage.inputTokenDetails).toEqual({ cachedTokens: 16 });

    const [first, second] = mock.doGenerateCalls;
    expect(first?.temperature).toBe(0.2);
    expect(first?.toolChoice).toEqual({ type: 'auto' });
    expect(first?.tools).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'The weather in a city.',
        inputSchema: expect.objectContaining({ type: 'object', required: ['city'] }),
      },
    ]);
    expect(first?.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Oslo?' }] },
    ]);
    expect(second?.prompt.slice(2)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'get_weather',
            output: { type: 'text', value: 'Sunny in Paris' },
          },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'get_weather',
            output: { type: 'text', value: 'Sunny in Oslo' },
          },
        ],
      },
    ]);
  });

  test('a streamed run: text deltas as they come, reasoning passed through as raw events and kept out of the output', async () => {
    const mock = new MockLanguageModelV4({
      doStream: streamOf([
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', id: 'resp_s', modelId: 'mock' },
        { type: 'reasoning-start', id: 'r1' },
        { type: 'reasoning-delta', id: 'r1', delta: 'The user greets.' },
        { type: 'reasoning-end', id: 'r1' },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Hé' },
        { type: 'text-delta', id: 't1', delta: ' 👋' },
        { type: 'text-end', id: 't1' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(5, 3) },
      ]),
    });
    const agent = new Agent({ name: 'Greeter', model: new AISdkModel(mock) });
    const result = await new Runner().run(agent, 'hi', { stream: true });
    const events = await collect(result);
    await result.completed;
    const model = events.flatMap((e) => (e.type === 'raw_model_event' ? [e.data] : []));
    expect(model.map((e) => e.type)).toEqual([
      'response_started',
      'raw',
      'raw',
      'raw',
      'raw',
      'text_delta',
      'text_delta',
      'response_done',
    ]);
    expect(model[0]).toEqual({ type: 'response_started', responseId: 'resp_s' });
    expect(model[1]).toEqual({ type: 'raw', event: { type: 'stream-start', warnings: [] } });
    expect(model[3]).toEqual({
      type: 'raw',
      event: { type: 'reasoning-delta', id: 'r1', delta: 'The user greets.' },
    });
    expect(result.finalOutput).toBe('Hé 👋');
    expect(result.history.at(-1)).toEqual({ type: 'message', role: 'assistant', content: 'Hé 👋' });
    expect(result.usage).toMatchObject({ requests: 1, inputTokens: 5, outputTokens: 3, totalTokens: 8 });
  });

  test('streamed tool calls (two in one response) run, and the next call sees their outputs', async () => {
    const mock = new MockLanguageModelV4({
      doStream: [
        streamOf([
          { type: 'stream-start', warnings: [] },
          { type: 'tool-input-start', id: 'c1', toolName: 'get_weather' },
          { type: 'tool-input-delta', id: 'c1', delta: '{"city":"Rome"}' },
          { type: 'tool-input-end', id: 'c1' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Rome"}' },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather', input: '{"city":"Bern"}' },
          { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage(9, 9) },
        ]),
        streamOf(textParts(['Both sunny.'])),
      ],
    });
    const agent = new Agent({ name: 'Forecaster', tools: [weather], model: new AISdkModel(mock) });
    const result = await new Runner().run(agent, 'Rome and Bern?', { stream: true });
    await collect(result);
    await result.completed;
    expect(result.finalOutput).toBe('Both sunny.');
    const outputs = result.newItems.filter((i) => i.type === 'tool_call_output_item').map((i) => i.rawItem);
    expect(outputs).toEqual([
      { type: 'function_call_output', callId: 'c1', output: 'Sunny in Rome' },
      { type: 'function_call_output', callId: 'c2', output: 'Sunny in Bern' },
    ]);
    expect(mock.doStreamCalls[1]?.prompt.at(-1)?.role).toBe('tool');
  });

  test('structured output: the schema goes as responseFormat json, the answer is parsed into the output type', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: generated([{ type: 'text', text: '{"city":"Lyon","celsius":21}' }]),
    });
    const agent = new Agent({
      name: 'Extractor',
      model: new AISdkModel(mock, { structuredOutputName: 'forecast' }),
      outputType: z.object({ city: z.string(), celsius: z.number() }),
    });
    const result = await new Runner().run(agent, 'Lyon, 21 degrees');
    expect(result.finalOutput).toEqual({ city: 'Lyon', celsius: 21 });
    expect(mock.doGenerateCalls[0]?.responseFormat).toEqual({
      type: 'json',
      name: 'forecast',
      schema: expect.objectContaining({ type: 'object', required: ['city', 'celsius'] }),
    });
  });

  test('structuredOutputText (v4) is the answer where the provider marks it, drafts aside', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: {
        ...generated([
          { type: 'text', text: 'Draft: maybe 20?' },
          { type: 'text', text: '{"celsius":21}' },
        ]),
        structuredOutputText: '{"celsius":21}',
      },
    });
    const agent = new Agent({
      name: 'Extractor',
      model: new AISdkModel(mock),
      outputType: z.object({ celsius: z.number() }),
    });
    expect((await new Runner().run(agent, '21 degrees')).finalOutput).toEqual({ celsius: 21 });
  });

  test('a v3 model (AI SDK 6) runs the same way', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: 'text', text: 'from v3' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: usage(1, 2),
        warnings: [],
      },
    });
    const model = new AISdkModel(mock);
    expect(model.modelId).toBe('mock-model-id');
    const result = await new Runner().run(new Agent({ name: 'Old', model }), 'hi');
    expect(result.finalOutput).toBe('from v3');
    expect(mock.doGenerateCalls[0]?.prompt).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    ]);
  });

  test('a model of another specification version is refused with a typed error', () => {
    const v2 = {
      specificationVersion: 'v2',
      provider: 'old.chat',
      modelId: 'x',
      doGenerate() {},
      doStream() {},
    };
    const error = (() => {
      try {
        new AISdkModel(v2 as never);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UnsupportedSpecificationVersionError);
    expect(error).toBeInstanceOf(UserError);
    expect(error).toMatchObject({ code: 'unsupported_specification_version', specificationVersion: 'v2' });
    expect((error as Error).message).toContain(
      'The old.chat model implements AI SDK provider specification "v2"',
    );
    expect(() => new AISdkModel('gpt-4.1' as never)).toThrow(/needs an AI SDK language model/);
  });

  test('unknown options and bad capabilities fail at construction', () => {
    const mock = new MockLanguageModelV4();
    expect(() => new AISdkModel(mock, { capabilites: {} } as never)).toThrow(/Unknown option 'capabilites'/);
    expect(() => new AISdkModel(mock, { capabilities: { tools: 'no' } } as never)).toThrow(
      'capabilities.tools must be true or false.',
    );
    expect(new AISdkModel(mock, { capabilities: { parallelToolCalls: false } }).capabilities).toEqual({
      streaming: true,
      tools: true,
      structuredOutput: true,
      parallelToolCalls: false,
    });
  });

  test('an APICallError keeps its status, request id and retryability; nothing key-like leaks', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new APICallError({
          message: 'Incorrect API key provided: sk-live-abcdefgh1234',
          url: 'https://api.example.test/v1/chat/completions',
          requestBodyValues: {},
          statusCode: 401,
          responseHeaders: { 'Request-Id': 'req_42' },
          responseBody: '{"error":{"message":"Incorrect API key provided: sk-live-abcdefgh1234"}}',
          isRetryable: false,
        });
      },
    });
    const error = await new AISdkModel(mock)
      .getResponse({ input: [], tools: [], modelSettings: {} }, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AISdkAPIError);
    expect(error).toMatchObject({
      code: 'authentication_failed',
      status: 401,
      requestId: 'req_42',
      retryable: false,
      provider: 'mock-provider',
    });
    const shown = `${(error as Error).message} ${JSON.stringify(error)} ${String((error as Error).cause)}`;
    expect(shown).not.toContain('abcdefgh1234');
    expect((error as Error).message).toContain('(request id req_42)');
  });

  test('an error part in a stream rejects the run with a stream_error; a stream without finish is interrupted', async () => {
    const failing = new MockLanguageModelV4({
      doStream: streamOf(
        [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'par' },
          { type: 'error', error: { message: 'Overloaded', type: 'overloaded_error' } },
        ],
        { 'x-request-id': 'req_s' },
      ),
    });
    const streamed = await collect(
      new AISdkModel(failing).streamResponse({ input: [], tools: [], modelSettings: {} }, {}),
    ).catch((e: unknown) => e);
    expect(streamed).toBeInstanceOf(AISdkAPIError);
    expect(streamed).toMatchObject({ code: 'stream_error', requestId: 'req_s' });
    expect((streamed as Error).message).toContain('Overloaded');

    const cut = new MockLanguageModelV4({ doStream: streamOf(textParts(['a']).slice(0, -1)) });
    const interrupted = await collect(
      new AISdkModel(cut).streamResponse({ input: [], tools: [], modelSettings: {} }, {}),
    ).catch((e: unknown) => e);
    expect(interrupted).toMatchObject({ code: 'stream_interrupted' });
  });

  test('abort: a call that ignores its signal still ends at once with the reason, and the signal reached the provider', async () => {
    let seen: AbortSignal | undefined;
    const never = new MockLanguageModelV4({
      doGenerate: (options) => {
        seen = options.abortSignal;
        return new Promise(() => {});
      },
      doStream: () =>
        Promise.resolve({
          stream: new ReadableStream({
            start(controller) {
              controller.enqueue({ type: 'stream-start', warnings: [] });
              controller.enqueue({ type: 'text-start', id: 't' });
            },
            cancel() {
              cancelled = true;
            },
          }),
        }),
    });
    let cancelled = false;
    const model = new AISdkModel(never);
    const controller = new AbortController();
    const pending = model.getResponse(
      { input: [], tools: [], modelSettings: {} },
      { signal: controller.signal },
    );
    const reason = new Error('user left');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(seen?.aborted).toBe(true);

    // Aborted while the stream opens: the late stream is cancelled.
    const early = new AbortController();
    const opening = collect(
      model.streamResponse({ input: [], tools: [], modelSettings: {} }, { signal: early.signal }),
    );
    early.abort(reason);
    await expect(opening).rejects.toBe(reason);
    await until(() => cancelled);

    // Aborted while reading: the pending read ends at once and the stream is cancelled.
    cancelled = false;
    const reading = new AbortController();
    const iterator = model
      .streamResponse({ input: [], tools: [], modelSettings: {} }, { signal: reading.signal })
      [Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'response_started' });
    expect((await iterator.next()).value).toMatchObject({ type: 'raw' });
    const next = iterator.next();
    reading.abort(reason);
    await expect(next).rejects.toBe(reason);
    expect(cancelled).toBe(true);
  });
});
