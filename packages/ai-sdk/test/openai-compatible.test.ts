import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { AISdkAPIError, AISdkModel } from '@parley/ai-sdk';
import { Agent, Runner, tool } from '@parley/core';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { collect } from './helpers.js';

const BASE_URL = 'https://llm.example.test/v1';
const API_KEY = 'sk-acme-Sup3rSecretKeyValue0123456789';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Serves `POST /chat/completions` with `replies` in order and records the request bodies. */
function script(replies: (() => Response)[]): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  server.use(
    http.post(`${BASE_URL}/chat/completions`, async ({ request }) => {
      bodies.push((await request.json()) as Record<string, unknown>);
      const reply = replies[bodies.length - 1];
      return reply
        ? reply()
        : HttpResponse.json({ error: { message: 'unexpected request' } }, { status: 418 });
    }),
  );
  return bodies;
}

function chunk(
  delta: Record<string, unknown>,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
) {
  return {
    id: 'chatcmpl-7',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'acme-1',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  };
}

function sse(chunks: Record<string, unknown>[]): Response {
  const text = `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
  return new HttpResponse(text, {
    headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_sse' },
  });
}

const weather = tool({
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}`,
});

function acme(options: { supportsStructuredOutputs?: boolean } = {}) {
  const provider = createOpenAICompatible({
    name: 'acme',
    baseURL: BASE_URL,
    apiKey: API_KEY,
    includeUsage: true,
    ...options,
  });
  return new AISdkModel(provider.chatModel('acme-1'));
}

describe('AISdkModel over @ai-sdk/openai-compatible (HTTP served by msw)', () => {
  test('a streamed run: two tool calls streamed in pieces, their outputs sent back, then the answer streamed', async () => {
    const bodies = script([
      () =>
        sse([
          chunk({
            role: 'assistant',
            tool_calls: [
              { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
          chunk({
            tool_calls: [
              {
                index: 1,
                id: 'call_b',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
              },
            ],
          }),
          chunk({}, 'tool_calls', { usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 } }),
        ]),
      () =>
        sse([
          chunk({ role: 'assistant', content: 'Sunny ' }),
          chunk({ content: 'in both.' }),
          chunk({}, 'stop', { usage: { prompt_tokens: 50, completion_tokens: 4, total_tokens: 54 } }),
        ]),
    ]);
    const agent = new Agent({
      name: 'Forecaster',
      instructions: 'Be brief.',
      tools: [weather],
      model: acme(),
    });
    const result = await new Runner().run(agent, 'Paris and Oslo?', { stream: true });
    const deltas = (await collect(result)).flatMap((e) =>
      e.type === 'raw_model_event' && e.data.type === 'text_delta' ? [e.data.delta] : [],
    );
    await result.completed;
    expect(deltas).toEqual(['Sunny ', 'in both.']);
    expect(result.finalOutput).toBe('Sunny in both.');
    expect(result.usage).toMatchObject({ requests: 2, inputTokens: 80, outputTokens: 16, totalTokens: 96 });
    expect(bodies[0]).toMatchObject({
      model: 'acme-1',
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Paris and Oslo?' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'The weather in a city.' } }],
    });
    expect(bodies[1]?.messages).toEqual([
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

  test('structured output: declared from the model (supportsStructuredOutputs), sent as a json_schema response format', async () => {
    expect(acme().capabilities.structuredOutput).toBe(false);
    const model = acme({ supportsStructuredOutputs: true });
    expect(model.capabilities).toEqual({
      streaming: true,
      tools: true,
      structuredOutput: true,
      parallelToolCalls: true,
    });
    const bodies = script([
      () =>
        HttpResponse.json({
          id: 'chatcmpl-9',
          object: 'chat.completion',
          created: 1,
          model: 'acme-1',
          choices: [
            { index: 0, message: { role: 'assistant', content: '{"celsius":21}' }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 },
        }),
    ]);
    const agent = new Agent({ name: 'Extractor', model, outputType: z.object({ celsius: z.number() }) });
    const result = await new Runner().run(agent, '21 degrees');
    expect(result.finalOutput).toEqual({ celsius: 21 });
    expect(result.rawResponses[0]?.responseId).toBe('chatcmpl-9');
    expect(bodies[0]?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'final_output', schema: { type: 'object', required: ['celsius'] } },
    });
  });

  test.each([
    [401, 'authentication_failed', false],
    [429, 'rate_limit_exceeded', true],
    [503, 'server_error', true],
  ] as const)(
    'HTTP %i becomes an AISdkAPIError %s with the status and request id, and no key',
    async (status, code, retryable) => {
      script([
        () =>
          HttpResponse.json(
            {
              error: { message: `Rejected: key ${API_KEY.slice(0, 12)}****${API_KEY.slice(-4)}`, type: 'x' },
            },
            { status, headers: { 'x-request-id': `req_${status}` } },
          ),
      ]);
      const agent = new Agent({ name: 'A', model: acme() });
      const error = await new Runner().run(agent, 'hi').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AISdkAPIError);
      expect(error).toMatchObject({
        code,
        status,
        requestId: `req_${status}`,
        retryable,
        provider: 'acme.chat',
      });
      const shown = `${String(error)} ${JSON.stringify(error)} ${String((error as Error).cause)}`;
      expect(shown).not.toContain(API_KEY.slice(-4));
    },
  );
});
