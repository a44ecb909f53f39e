/**
 * A hostile or misconfigured endpoint that echoes the API key into every field it answers with: no field of
 * any error Parley builds from the answer (message, code, requestId, param, type, responseId, cause, …) keeps
 * the key. A real HTTP server on loopback plays the endpoint.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelRequest } from '@parley/core';
import { createClientSecret, OpenAIResponsesModel } from '@parley/openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

/** Not shaped like an OpenAI key: only the exact-key redaction can catch it. */
const KEY = 'tenant-9f2c-PRIVATE-KEY-77';

let server: Server;
let baseURL: string;
let mode: 'http_error' | 'stream_error' | 'stream_failed' = 'http_error';

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const headers = { 'x-request-id': KEY };
      const error = { message: `bad key ${KEY}`, type: KEY, param: KEY, code: KEY };
      if (mode === 'http_error' || request.url?.includes('client_secrets')) {
        response.writeHead(400, { ...headers, 'content-type': 'application/json' });
        response.end(JSON.stringify({ error }));
        return;
      }
      response.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
      const event =
        mode === 'stream_error'
          ? { ...error, type: 'error' }
          : { type: 'response.failed', response: { id: KEY, status: 'failed', error } };
      response.end(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Every string reachable from `value` through own fields (errors' message, stack and cause included). */
function strings(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null || seen.has(value)) return [];
  seen.add(value);
  return Reflect.ownKeys(value).flatMap((key) => strings((value as Record<PropertyKey, unknown>)[key], seen));
}

const request: ModelRequest = {
  input: [{ type: 'message', role: 'user', content: 'hi' }],
  tools: [],
  modelSettings: {},
};

function model() {
  return new OpenAIResponsesModel({ apiKey: KEY, model: 'gpt-test', baseURL, maxRetries: 0 });
}

async function streamError(): Promise<unknown> {
  try {
    for await (const _ of model().streamResponse(request)) {
      // drain
    }
  } catch (error) {
    return error;
  }
  throw new Error('expected the stream to fail');
}

describe('a key echoed into every field of an answer', () => {
  test('Responses: an HTTP error keeps it in no field (requestId, param, type, code, message)', async () => {
    mode = 'http_error';
    const error = await model()
      .getResponse(request, {})
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400 });
    expect(strings(error).join('\n')).not.toContain(KEY);
    expect(error).toMatchObject({ requestId: '[redacted]', param: '[redacted]', type: '[redacted]' });
  });

  test('Responses: a stream error event and a failed response keep it in no field', async () => {
    mode = 'stream_error';
    const failed = await streamError();
    expect(failed).toMatchObject({ requestId: '[redacted]', param: '[redacted]' });
    expect(strings(failed).join('\n')).not.toContain(KEY);
    mode = 'stream_failed';
    const response = await streamError();
    expect(response).toMatchObject({ responseId: '[redacted]' });
    expect(strings(response).join('\n')).not.toContain(KEY);
  });

  test('createClientSecret: the refusal keeps it in no field', async () => {
    const error = await createClientSecret({ apiKey: KEY, baseURL }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'client_secret_failed', status: 400 });
    expect(strings(error).join('\n')).not.toContain(KEY);
  });
});
