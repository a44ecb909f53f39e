import type { TimerHandle } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAIResponsesModel, type OpenAIResponsesModelOptions } from '@parley/openai';
import { HttpResponse, http } from 'msw';
import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

export const BASE_URL = 'https://api.openai.test/v1';
export const RESPONSES_URL = `${BASE_URL}/responses`;
export const API_KEY = 'sk-test-Sup3rSecretKeyValue0123456789';

/** A request as the fake API saw it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
}

/** Starts one msw server for the test file; unknown requests fail the test. */
export function useMockServer(): SetupServer {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

type Reply = (request: RecordedRequest) => Response | Promise<Response>;

/**
 * Serves `POST /responses` with `replies` in order (one per request) and records every request.
 * A request beyond the script gets a 418 so a test sees it.
 */
export function script(server: SetupServer, replies: Reply[]): RecordedRequest[] {
  const recorded: RecordedRequest[] = [];
  server.use(
    http.post(RESPONSES_URL, async ({ request }) => {
      const entry: RecordedRequest = {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: (await request.json()) as Record<string, unknown>,
      };
      recorded.push(entry);
      const reply = replies[recorded.length - 1];
      if (!reply)
        return HttpResponse.json({ error: { message: 'unexpected extra request' } }, { status: 418 });
      return reply(entry);
    }),
  );
  return recorded;
}

/** A {@link ManualClock} that also records the delay of every timer set, to assert backoff values. */
export class RecordingClock extends ManualClock {
  readonly delays: number[] = [];

  override setTimeout(callback: () => void, ms: number): TimerHandle {
    this.delays.push(ms);
    return super.setTimeout(callback, ms);
  }

  /** Delays other than the per-attempt timeout: the retry backoffs. */
  backoffs(timeoutMs = 600_000): number[] {
    return this.delays.filter((ms) => ms !== timeoutMs);
  }
}

/** Builds a model against the fake API with a recording manual clock. */
export function makeModel(overrides: Partial<OpenAIResponsesModelOptions> = {}): {
  model: OpenAIResponsesModel;
  clock: RecordingClock;
} {
  const clock = new RecordingClock();
  const model = new OpenAIResponsesModel({
    apiKey: API_KEY,
    model: 'gpt-test',
    baseURL: BASE_URL,
    clock,
    ...overrides,
  });
  return { model, clock };
}

/** A completed Responses API `response` object. */
export function responseObject(
  output: unknown[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: 'resp_123',
    object: 'response',
    status: 'completed',
    model: 'gpt-test',
    output,
    usage: { input_tokens: 12, output_tokens: 5, total_tokens: 17 },
    ...extra,
  };
}

/** An assistant message output item. */
export function messageOutput(text: string, id = 'msg_1'): Record<string, unknown> {
  return {
    type: 'message',
    id,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

/** A function call output item. */
export function functionCallOutput(callId: string, name: string, args: string, id = `fc_${callId}`) {
  return { type: 'function_call', id, call_id: callId, name, arguments: args, status: 'completed' };
}

/** Encodes events the way the API streams them: `event:` + `data:` + blank line each. */
export function sseText(events: Record<string, unknown>[]): string {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

/** The events of a streamed text answer "Hé 👋!" split over three deltas. */
export function textStreamEvents(): Record<string, unknown>[] {
  const final = responseObject([messageOutput('Hé 👋!')]);
  const created = { ...final, status: 'in_progress', output: [], usage: null };
  return [
    { type: 'response.created', sequence_number: 0, response: created },
    { type: 'response.in_progress', sequence_number: 1, response: created },
    {
      type: 'response.output_item.added',
      sequence_number: 2,
      output_index: 0,
      item: { type: 'message', id: 'msg_1', role: 'assistant', status: 'in_progress', content: [] },
    },
    { type: 'response.output_text.delta', sequence_number: 3, item_id: 'msg_1', delta: 'Hé' },
    { type: 'response.output_text.delta', sequence_number: 4, item_id: 'msg_1', delta: ' 👋' },
    { type: 'response.output_text.delta', sequence_number: 5, item_id: 'msg_1', delta: '!' },
    { type: 'response.output_text.done', sequence_number: 6, item_id: 'msg_1', text: 'Hé 👋!' },
    { type: 'response.completed', sequence_number: 7, response: final },
  ];
}

/** A stream the test feeds by hand; `cancelled` resolves when the client cancels the body. */
export function manualStream(): {
  stream: ReadableStream<Uint8Array>;
  push(text: string | Uint8Array): void;
  close(): void;
  fail(error: Error): void;
  cancelled: Promise<unknown>;
} {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let onCancel!: (reason: unknown) => void;
  const cancelled = new Promise<unknown>((resolve) => {
    onCancel = resolve;
  });
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: (reason) => onCancel(reason),
  });
  const encoder = new TextEncoder();
  return {
    stream,
    push: (text) => controller.enqueue(typeof text === 'string' ? encoder.encode(text) : text),
    close: () => controller.close(),
    fail: (error) => controller.error(error),
    cancelled,
  };
}

/** A stream that delivers exactly these byte chunks, one per read. */
export function chunkedStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull: (controller) => {
      const chunk = chunks[index++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

/** An SSE HTTP response over `body`. */
export function sseResponse(body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}) {
  return new HttpResponse(body, {
    headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_stream', ...headers },
  });
}

/** Collects every event of a stream. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** Lets I/O and promise callbacks run until `condition` holds (no wall-clock waiting). */
export async function until(condition: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** Advances `clock` in steps until `promise` settles; returns its outcome. */
export async function settleWithClock<T>(
  clock: ManualClock,
  promise: Promise<T>,
  stepMs = 1_000,
): Promise<T> {
  let settled = false;
  const watched = promise.finally(() => {
    settled = true;
  });
  watched.catch(() => {});
  for (let i = 0; i < 10_000 && !settled; i++) await clock.advance(stepMs);
  return watched;
}

/** A minimal request for the model. */
export function userRequest(text = 'Hi') {
  return {
    input: [{ type: 'message' as const, role: 'user' as const, content: text }],
    tools: [],
    modelSettings: {},
  };
}
