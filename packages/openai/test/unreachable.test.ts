/**
 * "Cannot reach the service" is one typed error everywhere: a `ServiceUnreachableError` (code
 * `service_unreachable`, the network error as `cause`) from the Responses model, createClientSecret and a
 * Realtime connect alike. Nothing listens on the port each call is sent to.
 */
import { createServer } from 'node:net';
import { ServiceUnreachableError } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { createClientSecret, OpenAIRealtimeModel, OpenAIResponsesModel } from '@parley/openai';
import { beforeAll, describe, expect, test } from 'vitest';

const KEY = 'sk-test-unreachable-0123456789';
let port: number;

beforeAll(async () => {
  port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
});

function expectUnreachable(error: unknown, service: string) {
  expect(error).toBeInstanceOf(ServiceUnreachableError);
  expect(error).toMatchObject({ code: 'service_unreachable', service, cause: expect.any(Error) });
  expect((error as Error).message).toMatch(new RegExp(`^Could not reach ${service}`));
  expect(JSON.stringify(error)).not.toContain(KEY);
  expect((error as Error).message).not.toContain(KEY);
}

describe('a service nobody answers for', () => {
  test('Responses: ServiceUnreachableError with the URL, after the retries', async () => {
    const model = new OpenAIResponsesModel({
      apiKey: KEY,
      model: 'gpt-test',
      baseURL: `http://127.0.0.1:${port}/v1`,
      maxRetries: 0,
    });
    const error = await model
      .getResponse({ input: [], tools: [], modelSettings: {} }, {})
      .catch((e: unknown) => e);
    expectUnreachable(error, 'the Responses API');
    expect(error).toMatchObject({ url: `http://127.0.0.1:${port}/v1/responses` });
  });

  test('createClientSecret: ServiceUnreachableError, not a raw TypeError', async () => {
    const error = await createClientSecret({ apiKey: KEY, baseURL: `http://127.0.0.1:${port}/v1` }).catch(
      (e: unknown) => e,
    );
    expectUnreachable(error, 'the OpenAI API');
  });

  test('Realtime connect: ServiceUnreachableError', async () => {
    const model = new OpenAIRealtimeModel({
      apiKey: KEY,
      url: `ws://127.0.0.1:${port}/v1/realtime?model=gpt-realtime`,
      clock: new ManualClock(),
    });
    const error = await model.connect({ config: {} }).catch((e: unknown) => e);
    expectUnreachable(error, 'the Realtime service');
  });
});
