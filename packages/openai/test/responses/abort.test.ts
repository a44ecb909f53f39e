import { AbortError } from '@parley/core';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  makeModel,
  manualStream,
  script,
  sseResponse,
  sseText,
  textStreamEvents,
  until,
  useMockServer,
  userRequest,
} from './helpers.js';

const server = useMockServer();

describe('OpenAIResponsesModel abort', () => {
  it('rejects with the reason and sends nothing when the signal is already aborted', async () => {
    const recorded = script(server, []);
    const { model } = makeModel();
    const reason = new AbortError('stopped before starting');
    const controller = new AbortController();
    controller.abort(reason);
    await expect(model.getResponse(userRequest(), { signal: controller.signal })).rejects.toBe(reason);
    await expect(model.streamResponse(userRequest(), { signal: controller.signal }).next()).rejects.toBe(
      reason,
    );
    expect(recorded).toHaveLength(0);
  });

  it('rejects a request in flight with the abort reason and leaves no timer', async () => {
    const recorded = script(server, [() => new Promise<Response>(() => {})]);
    const { model, clock } = makeModel();
    const controller = new AbortController();
    const result = model.getResponse(userRequest(), { signal: controller.signal });
    await until(() => recorded.length === 1);
    const reason = new AbortError('user cancelled');
    controller.abort(reason);
    await expect(result).rejects.toBe(reason);
    expect(clock.pendingTimers).toBe(0);
  });

  it('rejects with the DOMException reason of a plain abort()', async () => {
    script(server, [() => new Promise<Response>(() => {})]);
    const { model } = makeModel();
    const controller = new AbortController();
    const result = model.getResponse(userRequest(), { signal: controller.signal });
    controller.abort();
    await expect(result).rejects.toBe(controller.signal.reason);
    expect((controller.signal.reason as Error).name).toBe('AbortError');
  });

  it('stops a retry backoff at once and makes no further request', async () => {
    const recorded = script(server, [
      () =>
        HttpResponse.json({ error: { message: 'busy' } }, { status: 503, headers: { 'retry-after': '30' } }),
      () => HttpResponse.json({}),
    ]);
    const { model, clock } = makeModel();
    const controller = new AbortController();
    const result = model.getResponse(userRequest(), { signal: controller.signal });
    await until(() => clock.backoffs().length === 1);
    const reason = new AbortError('no more waiting');
    controller.abort(reason);
    await expect(result).rejects.toBe(reason);
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(60_000);
    expect(recorded).toHaveLength(1);
  });

  it('aborts a stream mid-way: the pending read rejects with the reason and the body is cancelled', async () => {
    // A direct fetch, so the test can see the body being cancelled (msw does not forward cancels).
    const live = manualStream();
    const { model, clock } = makeModel({ fetch: async () => sseResponse(live.stream) });
    const controller = new AbortController();
    const iterator = model
      .streamResponse(userRequest(), { signal: controller.signal })
      [Symbol.asyncIterator]();
    live.push(sseText(textStreamEvents().slice(0, 4)));
    expect((await iterator.next()).value).toMatchObject({ type: 'response_started' });
    expect((await iterator.next()).value).toMatchObject({ type: 'raw' });
    expect((await iterator.next()).value).toMatchObject({ type: 'raw' });
    expect((await iterator.next()).value).toEqual({ type: 'text_delta', delta: 'Hé' });
    const pending = iterator.next();
    const reason = new AbortError('hang up');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await live.cancelled;
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    expect(clock.pendingTimers).toBe(0);
  });

  it('aborts a stream through msw while the server keeps it open', async () => {
    const live = manualStream();
    script(server, [() => sseResponse(live.stream)]);
    const { model } = makeModel();
    const controller = new AbortController();
    const events: string[] = [];
    live.push(sseText(textStreamEvents().slice(0, 4)));
    const consumed = (async () => {
      for await (const event of model.streamResponse(userRequest(), { signal: controller.signal })) {
        events.push(event.type);
        if (event.type === 'text_delta') controller.abort(new AbortError('enough'));
      }
    })();
    await expect(consumed).rejects.toMatchObject({ code: 'aborted', message: 'enough' });
    expect(events).toEqual(['response_started', 'raw', 'raw', 'text_delta']);
  });
});
