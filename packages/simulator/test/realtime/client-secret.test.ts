import { UnknownOptionError } from '@parley/core';
import { ClientSecretError, createClientSecret } from '@parley/openai';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { API_KEY } from './helpers.js';

const requests: { url: string; headers: Headers; body: unknown }[] = [];
let reply: () => Response = () => HttpResponse.json({});

const server = setupServer(
  http.post('https://api.openai.com/v1/realtime/client_secrets', async ({ request }) => {
    requests.push({ url: request.url, headers: request.headers, body: await request.json() });
    return reply();
  }),
  http.post('https://proxy.example/v1/realtime/client_secrets', async ({ request }) => {
    requests.push({ url: request.url, headers: request.headers, body: await request.json() });
    return reply();
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  requests.length = 0;
  server.resetHandlers();
});
afterAll(() => server.close());

describe('createClientSecret', () => {
  test('POSTs /v1/realtime/client_secrets with the session and returns the ephemeral key', async () => {
    reply = () =>
      HttpResponse.json({
        value: 'ek_68af296e8e408191a1120ab6383263c2',
        expires_at: 1756310470,
        session: { type: 'realtime', object: 'realtime.session', id: 'sess_1', model: 'gpt-realtime' },
      });
    const secret = await createClientSecret({
      apiKey: API_KEY,
      expiresAfterSeconds: 120,
      session: { instructions: 'Be brief.', audio: { output: { voice: 'marin' } } },
    });
    expect(secret).toEqual({
      value: 'ek_68af296e8e408191a1120ab6383263c2',
      expiresAt: 1756310470,
      session: { type: 'realtime', object: 'realtime.session', id: 'sess_1', model: 'gpt-realtime' },
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(requests[0]?.headers.get('content-type')).toBe('application/json');
    expect(requests[0]?.body).toEqual({
      expires_after: { anchor: 'created_at', seconds: 120 },
      session: {
        type: 'realtime',
        model: 'gpt-realtime',
        instructions: 'Be brief.',
        audio: { output: { voice: 'marin' } },
      },
    });
  });

  test('a base URL and a custom fetch are honoured', async () => {
    reply = () => HttpResponse.json({ value: 'ek_1', expires_at: 1 });
    const calls: string[] = [];
    const secret = await createClientSecret({
      apiKey: API_KEY,
      baseURL: 'https://proxy.example/v1/',
      fetch: (input, init) => {
        calls.push(String(input));
        return fetch(input, init);
      },
    });
    expect(secret).toEqual({ value: 'ek_1', expiresAt: 1, session: undefined });
    expect(calls).toEqual(['https://proxy.example/v1/realtime/client_secrets']);
    expect(requests[0]?.body).toEqual({ session: { type: 'realtime', model: 'gpt-realtime' } });
  });

  test('a refusal is a ClientSecretError with status, request id and the service message, never the key', async () => {
    reply = () =>
      HttpResponse.json(
        {
          error: {
            message: `Incorrect API key provided: ${API_KEY}.`,
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        },
        { status: 401, headers: { 'x-request-id': 'req_123' } },
      );
    const error = (await createClientSecret({ apiKey: API_KEY }).catch(
      (e: unknown) => e,
    )) as ClientSecretError;
    expect(error).toBeInstanceOf(ClientSecretError);
    expect(error).toMatchObject({ code: 'client_secret_failed', status: 401, requestId: 'req_123' });
    expect(error.message).toMatch(/HTTP 401: Incorrect API key provided: \[redacted\]\./);
    expect(`${error.message}${JSON.stringify(error)}`).not.toContain(API_KEY);
  });

  test('a response without a key is an error; bad options fail before any request', async () => {
    reply = () => HttpResponse.json({ nope: true });
    await expect(createClientSecret({ apiKey: API_KEY })).rejects.toMatchObject({
      code: 'client_secret_failed',
    });
    await expect(createClientSecret({ apiKey: '' })).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(createClientSecret({ apiKey: API_KEY, expiresAfterSeconds: 5 })).rejects.toMatchObject({
      code: 'invalid_option',
    });
    expect(requests).toHaveLength(1);
  });

  test('an unknown option (baseUrl for baseURL) fails before any request instead of reaching the public host', async () => {
    const error = await createClientSecret({
      apiKey: API_KEY,
      baseUrl: 'https://proxy.example/v1',
    } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect(error).toMatchObject({
      code: 'unknown_option',
      message: "Unknown option 'baseUrl' in CreateClientSecretOptions. Did you mean 'baseURL'?",
    });
    expect(requests).toHaveLength(0);
  });

  test('baseURL is checked like the other OpenAI endpoints', async () => {
    await expect(createClientSecret({ apiKey: API_KEY, baseURL: 'ftp://proxy.example' })).rejects.toThrow(
      'baseURL must use http or https',
    );
    expect(requests).toHaveLength(0);
  });
});
