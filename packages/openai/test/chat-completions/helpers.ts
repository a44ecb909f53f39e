import { OpenAIChatCompletionsModel, type OpenAIChatCompletionsModelOptions } from '@parley/openai';
import { HttpResponse, http } from 'msw';
import type { SetupServer } from 'msw/node';
import { API_KEY, BASE_URL, RecordingClock } from '../responses/helpers.js';

export const CHAT_URL = `${BASE_URL}/chat/completions`;

type Reply = (body: Record<string, unknown>, headers: Headers) => Response | Promise<Response>;

/** Serves `POST /chat/completions` with `replies` in order; records bodies and headers. A request too many gets 418. */
export function scriptChat(server: SetupServer, replies: Reply[]) {
  const recorded: { body: Record<string, unknown>; headers: Headers }[] = [];
  server.use(
    http.post(CHAT_URL, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      recorded.push({ body, headers: request.headers });
      const reply = replies[recorded.length - 1];
      return reply
        ? reply(body, request.headers)
        : HttpResponse.json({ error: { message: 'unexpected extra request' } }, { status: 418 });
    }),
  );
  return recorded;
}

/** A model against the fake server with a recording manual clock. */
export function makeChatModel(overrides: Partial<OpenAIChatCompletionsModelOptions> = {}) {
  const clock = new RecordingClock();
  const model = new OpenAIChatCompletionsModel({
    apiKey: API_KEY,
    model: 'llama-test',
    baseURL: BASE_URL,
    clock,
    ...overrides,
  });
  return { model, clock };
}

/** A `chat.completion` answer whose message is `message`. */
export function completion(message: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const finish = Array.isArray(message.tool_calls) ? 'tool_calls' : 'stop';
  return HttpResponse.json(
    {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'llama-test',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
      usage: { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 },
      ...extra,
    },
    { headers: { 'x-request-id': 'req_chat' } },
  );
}

/** A `chat.completion.chunk` with `delta` for the first choice. */
export function chunk(
  delta: Record<string, unknown>,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
) {
  return {
    id: 'chatcmpl-s',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'llama-test',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  };
}

/** Chunks as the server streams them: `data: {json}` each, then `data: [DONE]` unless `done` is false. */
export function chunksText(chunks: Record<string, unknown>[], done = true): string {
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}${done ? 'data: [DONE]\n\n' : ''}`;
}

/** A streamed answer "Hé 👋!" in three deltas, then a usage chunk. */
export function textChunks(): Record<string, unknown>[] {
  return [
    chunk({ role: 'assistant', content: '' }),
    chunk({ content: 'Hé' }),
    chunk({ content: ' 👋' }),
    chunk({ content: '!' }),
    chunk({}, 'stop'),
    { ...chunk({}), choices: [], usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 } },
  ];
}
