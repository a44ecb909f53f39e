import { ServiceUnreachableError } from '@parley/core';
import { OpenAIConnectionError, OpenAIRateLimitError, OpenAIServerError } from '@parley/openai';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  collect,
  makeModel,
  messageOutput,
  responseObject,
  script,
  settleWithClock,
  sseResponse,
  sseText,
  textStreamEvents,
  until,
  useMockServer,
  userRequest,
} from './helpers.js';

const server = useMockServer();
const ok = () => HttpResponse.json(responseObject([messageOutput('finally')]));
const status =
  (code: number, headers: Record<string, string> = {}, error: Record<string, unknown> = {}) =>
  () =>
    HttpResponse.json(
      {
        error: {
          message: `failure ${code}`,
          type: code === 429 ? 'requests' : 'server_error',
          code: null,
          ...error,
        },
      },
      { status: code, headers },
    );

describe('OpenAIResponsesModel retries', () => {
  it('waits exactly the retry-after seconds after a 429, then succeeds', async () => {
    const recorded = script(server, [status(429, { 'retry-after': '2' }), ok]);
    const { model, clock } = makeModel();
    const result = model.getResponse(userRequest(), {});
    await until(() => clock.backoffs().length === 1, 'the backoff timer');
    expect(clock.backoffs()).toEqual([2000]);
    await clock.advance(1999);
    expect(recorded).toHaveLength(1);
    await clock.advance(1);
    const response = await result;
    expect(recorded).toHaveLength(2);
    expect(response.output).toEqual([
      { type: 'message', role: 'assistant', content: 'finally', id: 'msg_1' },
    ]);
    expect(recorded[1]?.body).toEqual(recorded[0]?.body);
    expect(clock.pendingTimers).toBe(0);
  });

  it('prefers retry-after-ms over retry-after', async () => {
    script(server, [status(429, { 'retry-after-ms': '250', 'retry-after': '9' }), ok]);
    const { model, clock } = makeModel();
    const result = model.getResponse(userRequest(), {});
    await until(() => clock.backoffs().length === 1);
    expect(clock.backoffs()).toEqual([250]);
    await clock.advance(250);
    await expect(result).resolves.toBeDefined();
  });

  it('reads retry-after as an HTTP date', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    script(server, [status(503, { 'retry-after': at }), ok]);
    const { model, clock } = makeModel();
    const result = model.getResponse(userRequest(), {});
    await until(() => clock.backoffs().length === 1);
    const [wait] = clock.backoffs();
    expect(wait).toBeGreaterThan(25_000);
    expect(wait).toBeLessThanOrEqual(30_000);
    await settleWithClock(clock, result);
  });

  it('backs off exponentially with jitter after 5xx and network errors when no header says otherwise', async () => {
    const recorded = script(server, [status(500), () => HttpResponse.error(), status(502), ok]);
    const { model, clock } = makeModel({ maxRetries: 3 });
    const response = await settleWithClock(clock, model.getResponse(userRequest(), {}), 50);
    expect(response.responseId).toBe('resp_123');
    expect(recorded).toHaveLength(4);
    const [first, second, third] = clock.backoffs();
    expect(first).toBeGreaterThanOrEqual(375);
    expect(first).toBeLessThanOrEqual(500);
    expect(second).toBeGreaterThanOrEqual(750);
    expect(second).toBeLessThanOrEqual(1000);
    expect(third).toBeGreaterThanOrEqual(1500);
    expect(third).toBeLessThanOrEqual(2000);
  });

  it('ignores a retry-after longer than a minute and uses its own backoff', async () => {
    script(server, [status(429, { 'retry-after': '3600' }), ok]);
    const { model, clock } = makeModel();
    await settleWithClock(clock, model.getResponse(userRequest(), {}), 100);
    expect(clock.backoffs()[0]).toBeLessThanOrEqual(500);
  });

  it('gives up after maxRetries with the last typed error, its status and request id', async () => {
    const recorded = script(
      server,
      [1, 2, 3].map((n) => status(500, { 'x-request-id': `req_${n}` })),
    );
    const { model, clock } = makeModel({ maxRetries: 2 });
    const error = await settleWithClock(clock, model.getResponse(userRequest(), {})).catch((e: unknown) => e);
    expect(recorded).toHaveLength(3);
    expect(error).toBeInstanceOf(OpenAIServerError);
    expect(error).toMatchObject({
      status: 500,
      requestId: 'req_3',
      code: 'server_error',
      type: 'server_error',
    });
    expect((error as Error).message).toContain('failure 500');
    expect((error as Error).message).toContain('req_3');
    expect(clock.pendingTimers).toBe(0);
  });

  it('reports a rate limit with the body code once retries run out', async () => {
    const reply = status(
      429,
      { 'x-request-id': 'req_rl', 'retry-after-ms': '10' },
      { code: 'rate_limit_exceeded' },
    );
    const recorded = script(server, [reply, reply]);
    const { model, clock } = makeModel({ maxRetries: 1 });
    const error = await settleWithClock(clock, model.getResponse(userRequest(), {}), 10).catch(
      (e: unknown) => e,
    );
    expect(recorded).toHaveLength(2);
    expect(error).toBeInstanceOf(OpenAIRateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', requestId: 'req_rl' });
  });

  it('makes one attempt with maxRetries 0, and none more after a 400 or x-should-retry: false', async () => {
    const recordedA = script(server, [status(500), ok]);
    const a = makeModel({ maxRetries: 0 });
    await expect(a.model.getResponse(userRequest(), {})).rejects.toBeInstanceOf(OpenAIServerError);
    expect(recordedA).toHaveLength(1);

    server.resetHandlers();
    const recordedB = script(server, [
      status(400, {}, { type: 'invalid_request_error', param: 'input' }),
      ok,
    ]);
    const b = makeModel();
    await expect(b.model.getResponse(userRequest(), {})).rejects.toMatchObject({
      status: 400,
      param: 'input',
    });
    expect(recordedB).toHaveLength(1);

    server.resetHandlers();
    const recordedC = script(server, [status(503, { 'x-should-retry': 'false' }), ok]);
    const c = makeModel();
    await expect(c.model.getResponse(userRequest(), {})).rejects.toMatchObject({ status: 503 });
    expect(recordedC).toHaveLength(1);
  });

  it('retries a network failure and reports service_unreachable when it persists', async () => {
    const recorded = script(server, [() => HttpResponse.error(), () => HttpResponse.error()]);
    const { model, clock } = makeModel({ maxRetries: 1 });
    const error = await settleWithClock(clock, model.getResponse(userRequest(), {}), 100).catch(
      (e: unknown) => e,
    );
    expect(recorded).toHaveLength(2);
    expect(error).toBeInstanceOf(ServiceUnreachableError);
    expect(error).toMatchObject({ code: 'service_unreachable', service: 'the Responses API' });
  });

  it('times an attempt out after timeoutMs on the clock, retries, and reports timeout', async () => {
    const hang = () => new Promise<Response>(() => {});
    const recorded = script(server, [hang, hang]);
    const { model, clock } = makeModel({ maxRetries: 1, timeoutMs: 5_000 });
    const result = model.getResponse(userRequest(), {});
    result.catch(() => {});
    await until(() => recorded.length === 1);
    await clock.advance(4_999);
    expect(recorded).toHaveLength(1);
    await clock.advance(1);
    await until(() => clock.backoffs(5_000).length === 1);
    await clock.advance(clock.backoffs(5_000)[0] ?? 0);
    await until(() => recorded.length === 2);
    await clock.advance(5_000);
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIConnectionError);
    expect(error).toMatchObject({ code: 'timeout' });
    expect(clock.pendingTimers).toBe(0);
  });

  it('retries a stream request that fails before any event, then streams', async () => {
    const recorded = script(server, [
      status(429, { 'retry-after-ms': '100' }),
      () => sseResponse(sseText(textStreamEvents())),
    ]);
    const { model, clock } = makeModel();
    const events = await settleWithClock(clock, collect(model.streamResponse(userRequest(), {})), 100);
    expect(recorded).toHaveLength(2);
    expect(events.at(-1)?.type).toBe('response_done');
    expect(recorded[1]?.body.stream).toBe(true);
  });
});
