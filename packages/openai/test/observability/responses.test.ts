import { Agent, run, tool } from '@parley/core';
import { OpenAIResponsesModel } from '@parley/openai';
import { HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  BASE_URL,
  functionCallOutput,
  messageOutput,
  responseObject,
  script,
  useMockServer,
} from '../responses/helpers.js';
import { captureTelemetry } from './capture.js';

const server = useMockServer();

/** Shaped like a real project key, so that a pattern-based redaction is put to the test too. */
const KEY = 'sk-proj-Lp4Wc8Ns1Tq7Zx3Vb9Mr2Hd6Ky0Fg5Ja-Ue8Qo_3Xi7Rn1Cs4Yt9Bw2Em6PkaQ7';
const INPUT = 'SECRET-INPUT card 4111-1111';
const INSTRUCTIONS = 'SECRET-INSTRUCTIONS be brief';
const TOOL_ARGS = '{"order":"SECRET-ORDER-ID"}';
const TOOL_OUTPUT = 'SECRET-TOOL-OUTPUT';
const REPLY = 'SECRET-REPLY your order shipped';

function agent() {
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Look an order up',
    parameters: z.object({ order: z.string() }),
    execute: () => TOOL_OUTPUT,
  });
  const model = new OpenAIResponsesModel({
    apiKey: KEY,
    model: 'gpt-test',
    baseURL: BASE_URL,
    maxRetries: 0,
  });
  return new Agent({ name: 'Orders', instructions: INSTRUCTIONS, tools: [lookupOrder], model });
}

describe('the OpenAI Responses model: no span or log carries a key or what was said', () => {
  test('a tool turn, then a 401 whose message quotes the key whole and masked', async () => {
    const telemetry = captureTelemetry();
    const masked = `sk-proj-${'*'.repeat(20)}${KEY.slice(-4)}`;
    script(server, [
      () => HttpResponse.json(responseObject([functionCallOutput('call_1', 'lookup_order', TOOL_ARGS)])),
      () => HttpResponse.json(responseObject([messageOutput(REPLY)], { id: 'resp_2' })),
      () =>
        HttpResponse.json(
          {
            error: {
              message: `Incorrect API key provided: ${masked}. Also: ${KEY}.`,
              type: 'invalid_request_error',
              code: 'invalid_api_key',
            },
          },
          { status: 401 },
        ),
    ]);

    const result = await run(agent(), INPUT);
    expect(result.finalOutput).toBe(REPLY);
    await expect(run(agent(), INPUT)).rejects.toMatchObject({ code: 'invalid_api_key' });

    // What is there: the model calls with their usage, the tool call, and the failed call in the log.
    expect(telemetry.named('execute_tool lookup_order')).toHaveLength(1);
    const calls = telemetry.named('chat');
    expect(calls).toHaveLength(3);
    expect(calls[0]?.attributes).toMatchObject({
      'gen_ai.system': 'openai',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 5,
    });
    expect(calls[2]?.attributes['error.type']).toBe('invalid_api_key');
    expect(telemetry.lines).toContainEqual({
      level: 'error',
      args: [
        expect.stringContaining('Incorrect API key provided'),
        expect.objectContaining({ event: 'model_call_failed', code: 'invalid_api_key' }),
      ],
    });

    // What is not: the key (whole, masked or its tail), the input, instructions, tool arguments and output, the reply.
    const text = telemetry.text();
    for (const secret of [KEY, KEY.slice(8, 40), KEY.slice(-12), `${'*'.repeat(20)}${KEY.slice(-4)}`]) {
      expect(text).not.toContain(secret);
    }
    for (const secret of ['SECRET', '4111']) expect(text).not.toContain(secret);
  });
});
