import type { ModelStreamEvent } from '@parley/core';
import { OpenAIAPIError, OpenAIConnectionError, OpenAIResponseFailedError } from '@parley/openai';
import { describe, expect, it } from 'vitest';
import {
  chunkedStream,
  collect,
  functionCallOutput,
  makeModel,
  manualStream,
  messageOutput,
  responseObject,
  script,
  sseResponse,
  sseText,
  textStreamEvents,
  useMockServer,
  userRequest,
} from './helpers.js';

const server = useMockServer();
const encoder = new TextEncoder();

/** What every correct parse of {@link textStreamEvents} yields. */
function expectTextStream(events: ModelStreamEvent[]): void {
  expect(events.map((e) => e.type)).toEqual([
    'response_started',
    'raw',
    'raw',
    'text_delta',
    'text_delta',
    'text_delta',
    'raw',
    'response_done',
  ]);
  expect(events[0]).toEqual({ type: 'response_started', responseId: 'resp_123' });
  expect(events[1]).toMatchObject({ type: 'raw', event: { type: 'response.in_progress' } });
  const text = events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : [])).join('');
  expect(text).toBe('Hé 👋!');
  const done = events.at(-1);
  expect(done?.type === 'response_done' && done.response).toMatchObject({
    output: [{ type: 'message', role: 'assistant', content: 'Hé 👋!', id: 'msg_1' }],
    usage: { requests: 1, inputTokens: 12, outputTokens: 5, totalTokens: 17 },
    responseId: 'resp_123',
  });
}

async function streamOf(body: () => ReadableStream<Uint8Array> | string): Promise<ModelStreamEvent[]> {
  script(server, [() => sseResponse(body())]);
  const { model, clock } = makeModel();
  const events = await collect(model.streamResponse(userRequest(), {}));
  expect(clock.pendingTimers).toBe(0);
  return events;
}

describe('OpenAIResponsesModel streaming', () => {
  it('maps a whole stream delivered in one chunk', async () => {
    expectTextStream(await streamOf(() => sseText(textStreamEvents())));
  });

  it('parses the same stream delivered one byte at a time (multi-byte characters split)', async () => {
    const bytes = encoder.encode(sseText(textStreamEvents()));
    const chunks = Array.from(bytes, (b) => Uint8Array.of(b));
    expectTextStream(await streamOf(() => chunkedStream(chunks)));
  });

  it('parses the stream split at every one of many seeded random boundaries', async () => {
    const bytes = encoder.encode(sseText(textStreamEvents()));
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 10; round++) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + Math.floor(random() * 40);
        chunks.push(bytes.slice(at, at + size));
        at += size;
      }
      expectTextStream(await streamOf(() => chunkedStream(chunks)));
    }
  });

  it('handles CRLF and CR line endings (also a CR and LF in different chunks), comments and multi-line data', async () => {
    const [created, ...rest] = textStreamEvents();
    const pretty = (event: Record<string, unknown>) =>
      JSON.stringify(event, null, 2)
        .split('\n')
        .map((line) => `data:${line}`)
        .join('\r\n');
    const text =
      `: keep-alive comment\r\n` +
      `event:response.created\r\n${pretty(created ?? {})}\r\n\r\n` +
      `:another comment\r\r` +
      rest.map((event) => `event: ${String(event.type)}\rdata: ${JSON.stringify(event)}\r\r`).join('');
    const bytes = encoder.encode(text);
    // Split right after every CR so each CRLF arrives as two chunks.
    const chunks: Uint8Array[] = [];
    let start = 0;
    bytes.forEach((b, i) => {
      if (b === 13) {
        chunks.push(bytes.slice(start, i + 1));
        start = i + 1;
      }
    });
    chunks.push(bytes.slice(start));
    expectTextStream(await streamOf(() => chunkedStream(chunks)));
  });

  it('skips events without data and a [DONE] sentinel, and ignores a leading BOM', async () => {
    const text = `\uFEFFevent: ping\n\nretry: 10\nid: 1\n\ndata: [DONE]\n\n${sseText(textStreamEvents())}`;
    expectTextStream(await streamOf(() => text));
  });

  it('ends with response_done carrying function calls from response.completed', async () => {
    const final = responseObject([
      functionCallOutput('call_1', 'get_weather', '{"city":"Oslo"}'),
      functionCallOutput('call_2', 'get_weather', '{"city":"Rome"}'),
    ]);
    const events = await streamOf(() =>
      sseText([
        { type: 'response.created', response: { ...final, status: 'in_progress', output: [] } },
        { type: 'response.function_call_arguments.delta', item_id: 'fc_call_1', delta: '{"city"' },
        { type: 'response.completed', response: final },
      ]),
    );
    expect(events.map((e) => e.type)).toEqual(['response_started', 'raw', 'response_done']);
    const done = events[2];
    expect(done?.type === 'response_done' && done.response.output).toEqual([
      {
        type: 'function_call',
        callId: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
        id: 'fc_call_1',
      },
      {
        type: 'function_call',
        callId: 'call_2',
        name: 'get_weather',
        arguments: '{"city":"Rome"}',
        id: 'fc_call_2',
      },
    ]);
  });

  it('finishes an incomplete response with response_done too', async () => {
    const final = responseObject([messageOutput('Cut sho')], {
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
    const events = await streamOf(() => sseText([{ type: 'response.incomplete', response: final }]));
    const done = events.at(-1);
    expect(done?.type === 'response_done' && done.response.output).toEqual([
      { type: 'message', role: 'assistant', content: 'Cut sho', id: 'msg_1' },
    ]);
  });

  it('throws OpenAIResponseFailedError on response.failed, after the events before it', async () => {
    script(server, [
      () =>
        sseResponse(
          sseText([
            { type: 'response.created', response: { id: 'resp_f', status: 'in_progress', output: [] } },
            { type: 'response.output_text.delta', delta: 'Par' },
            {
              type: 'response.failed',
              response: {
                id: 'resp_f',
                status: 'failed',
                output: [],
                error: { code: 'server_error', message: 'Something broke.' },
              },
            },
          ]),
          { 'x-request-id': 'req_failed' },
        ),
    ]);
    const { model } = makeModel();
    const seen: ModelStreamEvent[] = [];
    const error = await (async () => {
      for await (const event of model.streamResponse(userRequest(), {})) seen.push(event);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([
      { type: 'response_started', responseId: 'resp_f' },
      { type: 'text_delta', delta: 'Par' },
    ]);
    expect(error).toBeInstanceOf(OpenAIResponseFailedError);
    expect(error).toMatchObject({ code: 'server_error', responseId: 'resp_f', requestId: 'req_failed' });
  });

  it('throws OpenAIResponseFailedError with the code of an error event', async () => {
    script(server, [
      () =>
        sseResponse(
          sseText([{ type: 'error', code: 'rate_limit_exceeded', message: 'Slow down.', param: null }]),
        ),
    ]);
    const { model } = makeModel();
    await expect(collect(model.streamResponse(userRequest(), {}))).rejects.toSatisfy(
      (e) =>
        e instanceof OpenAIResponseFailedError &&
        e.code === 'rate_limit_exceeded' &&
        e.requestId === 'req_stream',
    );
  });

  it('throws stream_interrupted when the stream ends before its final event, without retrying', async () => {
    const recorded = script(server, [
      () => sseResponse(sseText(textStreamEvents().slice(0, 4))),
      () => sseResponse(sseText(textStreamEvents())),
    ]);
    const { model } = makeModel();
    const error = await collect(model.streamResponse(userRequest(), {})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIConnectionError);
    expect(error).toMatchObject({ code: 'stream_interrupted', requestId: 'req_stream' });
    expect(recorded).toHaveLength(1);
  });

  it('throws stream_interrupted when the connection breaks mid-stream, without retrying', async () => {
    const live = manualStream();
    const recorded = script(server, [
      () => sseResponse(live.stream),
      () => sseResponse(sseText(textStreamEvents())),
    ]);
    const { model, clock } = makeModel();
    const iterator = model.streamResponse(userRequest(), {})[Symbol.asyncIterator]();
    live.push(sseText(textStreamEvents().slice(0, 1)));
    expect((await iterator.next()).value).toEqual({ type: 'response_started', responseId: 'resp_123' });
    const pending = iterator.next();
    live.fail(new TypeError('socket hang up'));
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIConnectionError);
    expect(error).toMatchObject({ code: 'stream_interrupted' });
    expect(recorded).toHaveLength(1);
    expect(clock.pendingTimers).toBe(0);
  });

  it('rejects a data line that is not JSON with invalid_response', async () => {
    script(server, [() => sseResponse('event: response.created\ndata: {not json\n\n')]);
    const { model } = makeModel();
    await expect(collect(model.streamResponse(userRequest(), {}))).rejects.toSatisfy(
      (e) => e instanceof OpenAIAPIError && e.code === 'invalid_response',
    );
  });

  it('cancels the response body when the consumer stops early', async () => {
    // A direct fetch: msw does not pass a client's cancel on to the handler's stream.
    const live = manualStream();
    const { model, clock } = makeModel({ fetch: async () => sseResponse(live.stream) });
    live.push(sseText(textStreamEvents().slice(0, 4)));
    for await (const event of model.streamResponse(userRequest(), {})) {
      if (event.type === 'text_delta') break;
    }
    await live.cancelled;
    expect(clock.pendingTimers).toBe(0);
  });
});
