import type { ModelRequest } from '@parley/core';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  API_KEY,
  functionCallOutput,
  makeModel,
  messageOutput,
  RESPONSES_URL,
  responseObject,
  script,
  settleWithClock,
  useMockServer,
  userRequest,
} from './helpers.js';

const server = useMockServer();
const ok = () => HttpResponse.json(responseObject([messageOutput('ok')]));

describe('OpenAIResponsesModel request mapping', () => {
  it('posts a text conversation with instructions, settings, auth and custom headers', async () => {
    const recorded = script(server, [ok]);
    const { model } = makeModel({
      organization: 'org_1',
      project: 'proj_1',
      headers: { 'X-App': 'parley-test' },
    });
    await model.getResponse(
      {
        systemInstructions: 'Be brief.',
        input: [
          { type: 'message', role: 'user', content: 'Hi' },
          { type: 'message', role: 'assistant', content: 'Hello!', id: 'msg_old' },
          { type: 'message', role: 'system', content: 'Stay polite.' },
          { type: 'message', role: 'user', content: 'Weather?' },
        ],
        tools: [],
        modelSettings: { temperature: 0.2, topP: 0.9, maxOutputTokens: 100 },
      },
      {},
    );

    expect(recorded).toHaveLength(1);
    const [request] = recorded;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(RESPONSES_URL);
    expect(request?.body).toEqual({
      model: 'gpt-test',
      instructions: 'Be brief.',
      input: [
        { type: 'message', role: 'user', content: 'Hi' },
        { type: 'message', role: 'assistant', content: 'Hello!' },
        { type: 'message', role: 'system', content: 'Stay polite.' },
        { type: 'message', role: 'user', content: 'Weather?' },
      ],
      temperature: 0.2,
      top_p: 0.9,
      max_output_tokens: 100,
      store: false,
      stream: false,
    });
    expect(request?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(request?.headers.get('accept')).toBe('application/json');
    expect(request?.headers.get('openai-organization')).toBe('org_1');
    expect(request?.headers.get('openai-project')).toBe('proj_1');
    expect(request?.headers.get('x-app')).toBe('parley-test');
  });

  it('maps tools, tool choice, parallel tool calls, function calls and their outputs', async () => {
    const recorded = script(server, [ok]);
    const { model } = makeModel();
    const parameters = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    };
    await model.getResponse(
      {
        input: [
          { type: 'message', role: 'user', content: 'Weather in Oslo?' },
          {
            type: 'function_call',
            callId: 'call_1',
            name: 'get_weather',
            arguments: '{"city":"Oslo"}',
            id: 'fc_1',
          },
          { type: 'function_call_output', callId: 'call_1', output: '{"tempC":3}' },
        ],
        tools: [
          { type: 'function', name: 'get_weather', description: 'Weather for a city', parameters },
          {
            type: 'function',
            name: 'transfer_to_billing',
            description: 'Hand off to billing',
            parameters: { type: 'object', properties: {} },
            isHandoff: true,
          },
        ],
        modelSettings: { toolChoice: { type: 'function', name: 'get_weather' }, parallelToolCalls: false },
      },
      {},
    );

    expect(recorded[0]?.body).toEqual({
      model: 'gpt-test',
      input: [
        { type: 'message', role: 'user', content: 'Weather in Oslo?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"tempC":3}' },
      ],
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather for a city',
          parameters,
          strict: false,
        },
        {
          type: 'function',
          name: 'transfer_to_billing',
          description: 'Hand off to billing',
          parameters: { type: 'object', properties: {} },
          strict: false,
        },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      store: false,
      stream: false,
    });
  });

  it.each(['auto', 'none', 'required'] as const)('passes tool_choice "%s" through', async (toolChoice) => {
    const recorded = script(server, [ok]);
    const { model } = makeModel();
    await model.getResponse({ ...userRequest(), modelSettings: { toolChoice } }, {});
    expect(recorded[0]?.body.tool_choice).toBe(toolChoice);
  });

  it('sends an output schema as a strict json_schema text format without $schema', async () => {
    const recorded = script(server, [ok]);
    const { model } = makeModel();
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { answer: { type: 'string' } },
      required: ['answer'],
      additionalProperties: false,
    };
    await model.getResponse({ ...userRequest(), outputSchema: schema }, {});
    const { $schema: _dropped, ...expected } = schema;
    expect(recorded[0]?.body.text).toEqual({
      format: { type: 'json_schema', name: 'final_output', schema: expected, strict: true },
    });
  });

  it('uses the structuredOutput name and strictness from the options', async () => {
    const recorded = script(server, [ok]);
    const { model } = makeModel({ structuredOutput: { name: 'weather_report', strict: false } });
    const request: ModelRequest = { ...userRequest(), outputSchema: { type: 'object' } };
    await model.getResponse(request, {});
    expect(recorded[0]?.body.text).toEqual({
      format: { type: 'json_schema', name: 'weather_report', schema: { type: 'object' }, strict: false },
    });
  });

  it('merges providerData last, so it can add fields and override mapped ones', async () => {
    const recorded = script(server, [ok]);
    const { model } = makeModel();
    await model.getResponse(
      {
        ...userRequest(),
        modelSettings: {
          temperature: 1,
          providerData: { store: true, temperature: 0, metadata: { run: 'r1' } },
        },
      },
      {},
    );
    expect(recorded[0]?.body).toMatchObject({
      store: true,
      temperature: 0,
      metadata: { run: 'r1' },
      stream: false,
    });
  });

  it('asks for an event stream when streaming', async () => {
    const recorded = script(server, [
      () => HttpResponse.json({ error: { message: 'stop here' } }, { status: 400 }),
    ]);
    const { model } = makeModel();
    await expect(async () => {
      for await (const _ of model.streamResponse(userRequest(), {})) {
        // nothing
      }
    }).rejects.toMatchObject({ status: 400 });
    expect(recorded[0]?.body.stream).toBe(true);
    expect(recorded[0]?.headers.get('accept')).toBe('text/event-stream');
  });

  it('calls apiKeyProvider for every attempt and sends the key it returns', async () => {
    const recorded = script(server, [
      () =>
        HttpResponse.json(
          { error: { message: 'busy' } },
          { status: 503, headers: { 'retry-after-ms': '0' } },
        ),
      ok,
    ]);
    let n = 0;
    const { model, clock } = makeModel({
      apiKey: undefined,
      apiKeyProvider: async () => `sk-rotated-key-number-${++n}`,
    });
    await settleWithClock(clock, model.getResponse(userRequest(), {}));
    expect(recorded.map((r) => r.headers.get('authorization'))).toEqual([
      'Bearer sk-rotated-key-number-1',
      'Bearer sk-rotated-key-number-2',
    ]);
  });

  it('keeps a baseURL path and query when building the endpoint', async () => {
    const recorded: string[] = [];
    const { model } = makeModel({
      baseURL: 'https://proxy.test/openai/v1/?tenant=a',
      fetch: async (input) => {
        recorded.push(String(input));
        return HttpResponse.json(responseObject([functionCallOutput('c', 'f', '{}')]));
      },
    });
    await model.getResponse(userRequest(), {});
    expect(recorded).toEqual(['https://proxy.test/openai/v1/responses?tenant=a']);
  });
});
