// The SIP server of docs/telephony.md, as written there; only the environment differs: OpenAI's call control is
// answered by msw, and the server listens on a free loopback port.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  OpenAISipCallControl,
  OpenAISipWebhookError,
  OpenAISipWebhookHandler,
  sipHeader,
} from '@parley/openai';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { realtimeIncoming, SECRET, signedWebhook } from './signed-webhook.js';

const accepted: { url: string; body: unknown }[] = [];
const api = setupServer(
  http.post('https://api.openai.com/v1/realtime/calls/:id/accept', async ({ request }) => {
    accepted.push({ url: request.url, body: await request.json() });
    return new HttpResponse(null, { status: 200 });
  }),
);
beforeAll(() => api.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => {
  api.close();
  vi.unstubAllEnvs();
});

test('the SIP server of docs/telephony.md accepts a signed call once and refuses a forged one', async () => {
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-docs-example');
  const process = { env: { OPENAI_WEBHOOK_SECRET: SECRET, PORT: '0' } as Record<string, string | undefined> };

  // ── docs/telephony.md, "SIP" ──
  const control = new OpenAISipCallControl(); // the key: OPENAI_API_KEY
  const webhooks = new OpenAISipWebhookHandler({
    secret: process.env.OPENAI_WEBHOOK_SECRET ?? '',
    onCall: async (call) => {
      // Caller-controlled: fine for a greeting, never for authorization.
      const from = sipHeader(call, 'From') ?? 'an unknown number';
      if (call.api === 'live') {
        await control.accept(call, { model: 'gpt-live-1', instructions: `Greet the caller from ${from}.` });
      } else {
        await control.accept(call, {
          model: 'gpt-realtime',
          instructions: `Greet the caller from ${from}.`,
          audio: { output: { voice: 'marin' } },
        });
      }
    },
  });

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      await webhooks.handle({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200).end();
    } catch (error) {
      const status = error instanceof OpenAISipWebhookError ? error.status : 500;
      response.writeHead(status).end(error instanceof OpenAISipWebhookError ? error.code : undefined);
    }
  });
  server.listen(Number(process.env.PORT ?? 8000), '127.0.0.1');
  // ── end of the example ──

  try {
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const signed = signedWebhook(realtimeIncoming('rtc_docs'), { timestampMs: Date.now() });
    const post = (request: { headers: Record<string, string>; body: string }) =>
      fetch(url, { method: 'POST', ...request });
    expect((await post(signed)).status).toBe(200);
    expect((await post(signed)).status).toBe(200);
    const forged = signedWebhook(realtimeIncoming('rtc_forged'), {
      timestampMs: Date.now(),
      secret: `whsec_${btoa('not-the-secret')}`,
    });
    const refused = await post(forged);
    expect([refused.status, await refused.text()]).toEqual([401, 'sip_webhook_invalid_signature']);
    expect(accepted).toEqual([
      {
        url: 'https://api.openai.com/v1/realtime/calls/rtc_docs/accept',
        body: {
          type: 'realtime',
          model: 'gpt-realtime',
          instructions: 'Greet the caller from "Ada" <sip:+15551230000@sip.example.com>.',
          audio: { output: { voice: 'marin' } },
        },
      },
    ]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
