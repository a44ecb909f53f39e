import { MODEL_SPECIFICATION_VERSION, type ModelResponse } from '@parley/core';
import { OpenAIAPIError, OpenAIResponseFailedError } from '@parley/openai';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  functionCallOutput,
  makeModel,
  messageOutput,
  responseObject,
  script,
  useMockServer,
  userRequest,
} from './helpers.js';

const server = useMockServer();

describe('OpenAIResponsesModel response mapping', () => {
  it('declares what it is', () => {
    const { model } = makeModel();
    expect(model.specificationVersion).toBe(MODEL_SPECIFICATION_VERSION);
    expect(model.provider).toBe('openai');
    expect(model.model).toBe('gpt-test');
    expect(model.capabilities).toEqual({
      streaming: true,
      tools: true,
      structuredOutput: true,
      parallelToolCalls: true,
      hostedTools: ['web_search', 'file_search', 'code_interpreter', 'image_generation', 'mcp'],
    });
  });

  it('maps messages, function calls and usage; skips other item types; keeps the raw response', async () => {
    const body = responseObject(
      [
        { type: 'reasoning', id: 'rs_1', summary: [] },
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [
            { type: 'output_text', text: 'Checking ', annotations: [] },
            { type: 'output_text', text: 'both cities.', annotations: [] },
          ],
        },
        functionCallOutput('call_a', 'get_weather', '{"city":"Oslo"}', 'fc_a'),
        functionCallOutput('call_b', 'get_weather', '{"city":"Rome"}', 'fc_b'),
      ],
      { id: 'resp_42', usage: { input_tokens: 30, output_tokens: 20, total_tokens: 50 } },
    );
    script(server, [() => HttpResponse.json(body, { headers: { 'x-request-id': 'req_ok' } })]);
    const { model, clock } = makeModel();

    const response = await model.getResponse(userRequest(), {});

    expect(response).toEqual<ModelResponse>({
      output: [
        { type: 'message', role: 'assistant', content: 'Checking both cities.', id: 'msg_1' },
        {
          type: 'function_call',
          callId: 'call_a',
          name: 'get_weather',
          arguments: '{"city":"Oslo"}',
          id: 'fc_a',
        },
        {
          type: 'function_call',
          callId: 'call_b',
          name: 'get_weather',
          arguments: '{"city":"Rome"}',
          id: 'fc_b',
        },
      ],
      usage: { requests: 1, inputTokens: 30, outputTokens: 20, totalTokens: 50 },
      responseId: 'resp_42',
      raw: body,
    });
    expect(clock.pendingTimers).toBe(0);
  });

  it('reads a refusal as the message text and tolerates missing usage', async () => {
    const body = responseObject(
      [
        {
          type: 'message',
          id: 'msg_r',
          role: 'assistant',
          content: [{ type: 'refusal', refusal: 'I cannot help with that.' }],
        },
      ],
      { usage: undefined },
    );
    script(server, [() => HttpResponse.json(body)]);
    const { model } = makeModel();
    const response = await model.getResponse(userRequest(), {});
    expect(response.output).toEqual([
      { type: 'message', role: 'assistant', content: 'I cannot help with that.', id: 'msg_r' },
    ]);
    expect(response.usage).toEqual({ requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });

  it('turns a failed response into OpenAIResponseFailedError with the code and ids', async () => {
    script(server, [
      () =>
        HttpResponse.json(
          responseObject([], {
            id: 'resp_bad',
            status: 'failed',
            error: { code: 'server_error', message: 'The model crashed.' },
          }),
          { headers: { 'x-request-id': 'req_f' } },
        ),
    ]);
    const { model } = makeModel();
    const error = await model.getResponse(userRequest(), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIResponseFailedError);
    expect(error).toMatchObject({ code: 'server_error', responseId: 'resp_bad', requestId: 'req_f' });
    expect((error as Error).message).toContain('The model crashed.');
  });

  it.each([
    ['a body that is not JSON', () => new HttpResponse('<html>oops</html>', { status: 200 })],
    ['a body without output', () => HttpResponse.json({ id: 'resp_1' })],
    [
      'a function call without call_id',
      () => HttpResponse.json(responseObject([{ type: 'function_call', name: 'f', arguments: '{}' }])),
    ],
  ])('rejects %s with an invalid_response OpenAIAPIError (not retried)', async (_what, reply) => {
    const recorded = script(server, [reply, reply, reply]);
    const { model } = makeModel();
    const error = await model.getResponse(userRequest(), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIAPIError);
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
    expect(recorded).toHaveLength(1);
  });

  it('returns an empty-text message for a message without text parts', async () => {
    script(server, [() => HttpResponse.json(responseObject([{ ...messageOutput(''), content: [] }]))]);
    const { model } = makeModel();
    const response = await model.getResponse(userRequest(), {});
    expect(response.output).toEqual([{ type: 'message', role: 'assistant', content: '', id: 'msg_1' }]);
  });
});
