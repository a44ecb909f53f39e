import { AzureOpenAIResponsesModel } from '@parley/azure';
import { Agent, run } from '@parley/core';
import { OpenAIAuthenticationError } from '@parley/openai';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';

const ENDPOINT = 'https://my-resource.openai.azure.com';
const RESPONSES_URL = `${ENDPOINT}/openai/v1/responses`;
const KEY = 'azure-responses-key-0123456789';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

interface Seen {
  headers: Headers;
  body: Record<string, unknown>;
}

function answer(text: string): Record<string, unknown> {
  return {
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    model: 'my-gpt',
    output: [
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    ],
    usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
  };
}

function serve(reply: (seen: Seen) => Response): Seen[] {
  const seen: Seen[] = [];
  server.use(
    http.post(RESPONSES_URL, async ({ request }) => {
      const entry = { headers: request.headers, body: (await request.json()) as Record<string, unknown> };
      seen.push(entry);
      return reply(entry);
    }),
  );
  return seen;
}

test('a Runner turn posts to {endpoint}/openai/v1/responses with the deployment as model and the key in api-key', async () => {
  const seen = serve(() => HttpResponse.json(answer('Hello from Azure.')));
  const model = new AzureOpenAIResponsesModel({ endpoint: ENDPOINT, deployment: 'my-gpt', apiKey: KEY });
  const result = await run(new Agent({ name: 'Helper', instructions: 'Be kind.', model }), 'Hi');
  expect(result.finalOutput).toBe('Hello from Azure.');
  expect(seen).toHaveLength(1);
  expect(seen[0]?.body.model).toBe('my-gpt');
  expect(seen[0]?.headers.get('api-key')).toBe(KEY);
  expect(seen[0]?.headers.get('authorization')).toBeNull();
});

test('with a tokenProvider, every request fetches a token and sends it as a bearer token', async () => {
  const seen = serve(() => HttpResponse.json(answer('ok')));
  let calls = 0;
  const model = new AzureOpenAIResponsesModel({
    resourceName: 'my-resource',
    deployment: 'my-gpt',
    tokenProvider: async () => `entra-${++calls}`,
  });
  await run(new Agent({ name: 'A', model }), 'one');
  await run(new Agent({ name: 'A', model }), 'two');
  expect(seen.map((s) => [s.headers.get('authorization'), s.headers.get('api-key')])).toEqual([
    ['Bearer entra-1', null],
    ['Bearer entra-2', null],
  ]);
});

test('a 401 is the typed authentication error with its status, and the key is not in it', async () => {
  serve(() =>
    HttpResponse.json(
      { error: { code: '401', message: 'Access denied due to invalid subscription key.' } },
      { status: 401 },
    ),
  );
  const model = new AzureOpenAIResponsesModel({ endpoint: ENDPOINT, deployment: 'my-gpt', apiKey: KEY });
  const error = await run(new Agent({ name: 'A', model }), 'Hi').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OpenAIAuthenticationError);
  expect(error).toMatchObject({ status: 401 });
  expect(String((error as Error).message)).not.toContain(KEY);
});

test('streaming works the same way', async () => {
  const final = answer('Streamed.');
  const events = [
    {
      type: 'response.created',
      sequence_number: 0,
      response: { ...final, status: 'in_progress', output: [] },
    },
    { type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_1', delta: 'Streamed.' },
    { type: 'response.completed', sequence_number: 2, response: final },
  ];
  serve(
    () =>
      new HttpResponse(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''), {
        headers: { 'Content-Type': 'text/event-stream' },
      }),
  );
  const model = new AzureOpenAIResponsesModel({ endpoint: ENDPOINT, deployment: 'my-gpt', apiKey: KEY });
  const result = await run(new Agent({ name: 'A', model }), 'Hi', { stream: true });
  const deltas: string[] = [];
  for await (const text of result.toTextStream()) deltas.push(text);
  await result.completed;
  expect(deltas.join('')).toBe('Streamed.');
  expect(result.finalOutput).toBe('Streamed.');
});
