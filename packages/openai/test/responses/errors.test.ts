import { inspect } from 'node:util';
import { ParleyError } from '@parley/core';
import {
  OpenAIAPIError,
  OpenAIAuthenticationError,
  OpenAIBadRequestError,
  OpenAINotFoundError,
  OpenAIPermissionDeniedError,
  OpenAIRateLimitError,
  OpenAIServerError,
} from '@parley/openai';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { API_KEY, collect, makeModel, script, useMockServer, userRequest } from './helpers.js';

const server = useMockServer();

/** Every way an error can be shown: none may contain the key or its tail. */
function renderings(error: unknown): string[] {
  const e = error as Error;
  return [String(e), e.message, e.stack ?? '', inspect(e, { depth: 10 }), JSON.stringify(e)];
}

describe('OpenAIResponsesModel errors', () => {
  it.each([
    [400, OpenAIBadRequestError, 'bad_request'],
    [401, OpenAIAuthenticationError, 'authentication_failed'],
    [403, OpenAIPermissionDeniedError, 'permission_denied'],
    [404, OpenAINotFoundError, 'not_found'],
    [422, OpenAIAPIError, 'api_error'],
    [429, OpenAIRateLimitError, 'rate_limit_exceeded'],
    [500, OpenAIServerError, 'server_error'],
  ] as const)(
    'maps HTTP %i to %o with a default code when the body has none',
    async (status, Class, code) => {
      script(server, [
        () => new HttpResponse('upstream said no', { status, headers: { 'x-request-id': 'req_e' } }),
      ]);
      const { model } = makeModel({ maxRetries: 0 });
      const error = await model.getResponse(userRequest(), {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(OpenAIAPIError);
      expect(error).toBeInstanceOf(ParleyError);
      expect(error).toMatchObject({ code, status, requestId: 'req_e' });
      expect((error as Error).message).toContain('upstream said no');
    },
  );

  it('takes code, type, param and message from the error body', async () => {
    script(server, [
      () =>
        HttpResponse.json(
          {
            error: {
              message: "Invalid value for 'temperature'.",
              type: 'invalid_request_error',
              param: 'temperature',
              code: 'invalid_value',
            },
          },
          { status: 400, headers: { 'x-request-id': 'req_b' } },
        ),
    ]);
    const { model } = makeModel();
    const error = await model.getResponse(userRequest(), {}).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'OpenAIBadRequestError',
      code: 'invalid_value',
      type: 'invalid_request_error',
      param: 'temperature',
      status: 400,
      requestId: 'req_b',
    });
    expect((error as Error).message).toBe(
      "OpenAI API error 400 (invalid_value): Invalid value for 'temperature'. (request id req_b)",
    );
  });

  it('never shows the API key, even when the 401 body echoes it (whole or masked)', async () => {
    const masked = `sk-test-${'*'.repeat(20)}${API_KEY.slice(-4)}`;
    const reply = () =>
      HttpResponse.json(
        {
          error: {
            message: `Incorrect API key provided: ${masked}. Also: ${API_KEY}.`,
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        },
        { status: 401, headers: { 'x-request-id': 'req_401' } },
      );
    script(server, [reply, reply]);
    const { model } = makeModel();
    const errors = [
      await model.getResponse(userRequest(), {}).catch((e: unknown) => e),
      await collect(model.streamResponse(userRequest(), {})).catch((e: unknown) => e),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(OpenAIAuthenticationError);
      expect(error).toMatchObject({ code: 'invalid_api_key', status: 401, requestId: 'req_401' });
      expect((error as Error).message).toContain('Check the apiKey');
      for (const text of renderings(error)) {
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain(API_KEY.slice(-4));
      }
    }
  });

  it('keeps the key out of connection errors and out of the model object', async () => {
    const { model } = makeModel({
      maxRetries: 0,
      fetch: async (_input, init) => {
        const auth = new Headers(init?.headers).get('authorization');
        throw new TypeError(`fetch failed with header ${auth}`);
      },
    });
    const error = await model.getResponse(userRequest(), {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'service_unreachable' });
    expect((error as Error).message).toContain('[redacted]');
    for (const text of renderings(error)) expect(text).not.toContain(API_KEY);
    expect(inspect(model, { depth: 10, showHidden: true })).not.toContain(API_KEY);
    expect(JSON.stringify(model)).not.toContain(API_KEY);
  });
});
