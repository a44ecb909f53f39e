import { Agent, Runner, tool, UserError } from '@parley/core';
import {
  OpenAIAPIError,
  OpenAIAuthenticationError,
  OpenAIChatCompletionsModel,
  OpenAIConnectionError,
  OpenAIRateLimitError,
  OpenAIResponseFailedError,
} from '@parley/openai';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  API_KEY,
  BASE_URL,
  collect,
  manualStream,
  settleWithClock,
  sseResponse,
  useMockServer,
  userRequest,
} from '../responses/helpers.js';
import { chunk, chunksText, completion, makeChatModel, scriptChat, textChunks } from './helpers.js';

const server = useMockServer();

const weather = tool({
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}`,
});

describe('OpenAIChatCompletionsModel', () => {
  it('runs a Runner turn with two tool calls: the wire carries messages, tools and the calls back', async () => {
    const recorded = scriptChat(server, [
      () =>
        completion({
          content: null,
          tool_calls: [
            {
              id: 'call_a',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
            {
              id: 'call_b',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        }),
      () => completion({ content: 'Sunny in both.' }, { id: 'chatcmpl-2' }),
    ]);
    const { model } = makeChatModel();
    const agent = new Agent({
      name: 'Forecaster',
      instructions: 'Be brief.',
      tools: [weather],
      model,
      modelSettings: {
        toolChoice: 'required',
        parallelToolCalls: true,
        temperature: 0.1,
        maxOutputTokens: 99,
      },
    });
    const result = await new Runner().run(agent, 'Paris and Oslo?');
    expect(result.finalOutput).toBe('Sunny in both.');
    expect(result.usage).toMatchObject({ requests: 2, inputTokens: 40, outputTokens: 14, totalTokens: 54 });
    expect(result.rawResponses.map((r) => r.responseId)).toEqual(['chatcmpl-1', 'chatcmpl-2']);
    expect(recorded[0]?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(recorded[0]?.body).toEqual({
      model: 'llama-test',
      stream: false,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Paris and Oslo?' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather in a city.',
            parameters: expect.any(Object),
          },
        },
      ],
      tool_choice: 'required',
      parallel_tool_calls: true,
      temperature: 0.1,
      max_completion_tokens: 99,
    });
    expect(recorded[1]?.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Paris and Oslo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'Sunny in Paris' },
      { role: 'tool', tool_call_id: 'call_b', content: 'Sunny in Oslo' },
    ]);
  });

  it('streams: text deltas as they come, usage from the last chunk, response_done at [DONE]', async () => {
    const recorded = scriptChat(server, [() => sseResponse(chunksText(textChunks()))]);
    const { model } = makeChatModel();
    const events = await collect(model.streamResponse(userRequest(), {}));
    expect(events.filter((e) => e.type !== 'raw')).toEqual([
      { type: 'response_started', responseId: 'chatcmpl-s' },
      { type: 'text_delta', delta: 'Hé' },
      { type: 'text_delta', delta: ' 👋' },
      { type: 'text_delta', delta: '!' },
      {
        type: 'response_done',
        response: {
          output: [{ type: 'message', role: 'assistant', content: 'Hé 👋!' }],
          usage: { requests: 1, inputTokens: 11, outputTokens: 3, totalTokens: 14 },
          responseId: 'chatcmpl-s',
          raw: expect.any(Object),
        },
      },
    ]);
    expect(recorded[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(recorded[0]?.headers.get('accept')).toBe('text/event-stream');
  });

  it('puts streamed tool calls together from their pieces, by index, in a streamed run', async () => {
    scriptChat(server, [
      () =>
        sseResponse(
          chunksText([
            chunk({
              role: 'assistant',
              tool_calls: [
                {
                  index: 0,
                  id: 'call_a',
                  type: 'function',
                  function: { name: 'get_weather', arguments: '' },
                },
              ],
            }),
            chunk({
              tool_calls: [
                {
                  index: 1,
                  id: 'call_b',
                  type: 'function',
                  function: { name: 'get_weather', arguments: '{"city":' },
                },
              ],
            }),
            chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Rome"}' } }] }),
            chunk({ tool_calls: [{ index: 1, function: { arguments: '"Bern"}' } }] }),
            chunk({}, 'tool_calls'),
          ]),
        ),
      () => sseResponse(chunksText(textChunks())),
    ]);
    const { model } = makeChatModel();
    const agent = new Agent({ name: 'Forecaster', tools: [weather], model });
    const result = await new Runner().run(agent, 'Rome and Bern?', { stream: true });
    await collect(result);
    await result.completed;
    expect(result.finalOutput).toBe('Hé 👋!');
    expect(result.newItems.filter((i) => i.type === 'tool_call_output_item').map((i) => i.rawItem)).toEqual([
      { type: 'function_call_output', callId: 'call_a', output: 'Sunny in Rome' },
      { type: 'function_call_output', callId: 'call_b', output: 'Sunny in Bern' },
    ]);
  });

  it('structured output: response_format json_schema, the answer parsed into the output type', async () => {
    const recorded = scriptChat(server, [() => completion({ content: '{"celsius":21}' })]);
    const { model } = makeChatModel({ structuredOutput: { name: 'forecast' } });
    const agent = new Agent({ name: 'Extractor', model, outputType: z.object({ celsius: z.number() }) });
    expect((await new Runner().run(agent, '21 degrees')).finalOutput).toEqual({ celsius: 21 });
    expect(recorded[0]?.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'forecast',
        strict: true,
        schema: expect.objectContaining({ type: 'object', required: ['celsius'] }),
      },
    });
  });

  it('accepts a stream the server closes after its finish_reason without [DONE]; one closed earlier is interrupted', async () => {
    scriptChat(server, [
      () => sseResponse(chunksText(textChunks(), false)),
      () => sseResponse(chunksText(textChunks().slice(0, 3), false)),
    ]);
    const { model } = makeChatModel();
    const done = await collect(model.streamResponse(userRequest(), {}));
    expect(done.at(-1)).toMatchObject({
      type: 'response_done',
      response: { output: [{ content: 'Hé 👋!' }] },
    });
    const cut = await collect(model.streamResponse(userRequest(), {})).catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(OpenAIConnectionError);
    expect(cut).toMatchObject({ code: 'stream_interrupted', requestId: 'req_stream' });
  });

  it('an error chunk (OpenRouter, vLLM) rejects with OpenAIResponseFailedError carrying its code', async () => {
    scriptChat(server, [
      () =>
        sseResponse(
          chunksText(
            [chunk({ content: 'par' }), { error: { message: 'Provider overloaded', code: 502 } }],
            false,
          ),
        ),
    ]);
    const { model } = makeChatModel();
    const error = await collect(model.streamResponse(userRequest(), {})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIResponseFailedError);
    expect(error).toMatchObject({ code: '502', requestId: 'req_stream' });
    expect((error as Error).message).toContain('Provider overloaded');
  });

  it('a 200 answer that is no completion (a proxy page, no choices, an error body) is rejected once, not retried', async () => {
    const recorded = scriptChat(server, [
      () =>
        new HttpResponse('<html>Gateway says hi</html>', {
          status: 200,
          headers: { 'x-request-id': 'req_html' },
        }),
      () =>
        HttpResponse.json({ id: 'chatcmpl-1', choices: [] }, { headers: { 'x-request-id': 'req_empty' } }),
      () => HttpResponse.json({ error: { message: 'Provider overloaded', code: 502 } }),
    ]);
    const { model } = makeChatModel();
    const notJSON = await model.getResponse(userRequest(), {}).catch((e: unknown) => e);
    expect(notJSON).toBeInstanceOf(OpenAIAPIError);
    expect(notJSON).toMatchObject({ code: 'invalid_response', status: 200, requestId: 'req_html' });
    expect((notJSON as Error).message).toContain('the body is not JSON');
    const noChoice = await model.getResponse(userRequest(), {}).catch((e: unknown) => e);
    expect(noChoice).toMatchObject({ code: 'invalid_response', status: 200, requestId: 'req_empty' });
    expect((noChoice as Error).message).toContain('no choices[0].message');
    const failed = await model.getResponse(userRequest(), {}).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpenAIResponseFailedError);
    expect(failed).toMatchObject({ code: '502' });
    expect(recorded).toHaveLength(3);
  });

  it('HTTP errors are the typed errors of the Responses model; 429 is retried after the backoff', async () => {
    const recorded = scriptChat(server, [
      () =>
        HttpResponse.json(
          { error: { message: 'slow down' } },
          { status: 429, headers: { 'retry-after-ms': '1500' } },
        ),
      () => completion({ content: 'ok' }),
      () =>
        HttpResponse.json(
          { error: { message: `Incorrect API key provided: ${API_KEY}`, code: 'invalid_api_key' } },
          { status: 401, headers: { 'x-request-id': 'req_401' } },
        ),
    ]);
    const { model, clock } = makeChatModel();
    const answer = await settleWithClock(clock, model.getResponse(userRequest(), {}), 500);
    expect(answer.output).toEqual([{ type: 'message', role: 'assistant', content: 'ok' }]);
    expect(clock.backoffs()).toEqual([1500]);
    expect(recorded).toHaveLength(2);
    const error = await model.getResponse(userRequest(), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIAuthenticationError);
    expect(error).toMatchObject({ code: 'invalid_api_key', status: 401, requestId: 'req_401' });
    expect(`${String(error)} ${JSON.stringify(error)}`).not.toContain(API_KEY);
    expect(OpenAIRateLimitError).toBeDefined();
  });

  it('abort mid-stream ends the stream with the reason and cancels the body', async () => {
    // A direct fetch, so the test can see the body being cancelled (msw does not forward cancels).
    const body = manualStream();
    const { model, clock } = makeChatModel({ fetch: async () => sseResponse(body.stream) });
    const controller = new AbortController();
    const iterator = model.streamResponse(userRequest(), { signal: controller.signal });
    body.push(chunksText([chunk({ role: 'assistant', content: 'Hi' })], false));
    expect((await iterator.next()).value).toEqual({ type: 'response_started', responseId: 'chatcmpl-s' });
    expect((await iterator.next()).value).toEqual({ type: 'text_delta', delta: 'Hi' });
    const next = iterator.next();
    const reason = new Error('user left');
    controller.abort(reason);
    await expect(next).rejects.toBe(reason);
    await body.cancelled;
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    expect(clock.pendingTimers).toBe(0);
  });

  it('declares all capabilities by default and takes overrides; bad options fail before any request', () => {
    const { model } = makeChatModel({ capabilities: { structuredOutput: false } });
    expect(model.capabilities).toEqual({
      streaming: true,
      tools: true,
      structuredOutput: false,
      parallelToolCalls: true,
    });
    expect(model.provider).toBe('openai-chat');
    expect(() => makeChatModel({ capabilities: { tool: false } as never })).toThrow(
      /Unknown option 'capabilities.tool'/,
    );
    expect(() => makeChatModel({ capabilities: { tools: 1 } as never })).toThrow(UserError);
    expect(() => new OpenAIChatCompletionsModel({ model: 'x', apiKey: 'k', baseURL: 'ftp://x' })).toThrow(
      /baseURL must use http or https/,
    );
    expect(BASE_URL).toContain('/v1');
  });
});
