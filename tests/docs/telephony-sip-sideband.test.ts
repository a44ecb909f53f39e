// The `answerSipCall` server of docs/telephony.md, run as written against the Realtime simulator on loopback. Only the
// environment differs, through the names the example uses: `process.env` holds the simulator's webhook secret,
// `createServer(…).listen(8000)` listens on a free loopback port, `answerSipCall` points the call control and the
// sideband at the simulator, and `console.error` is collected. The test checks that docs/telephony.md shows this code.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { codeRegion } from '@parley/conformance';
import { Agent } from '@parley/core';
import { ManualClock } from '@parley/mock';
import {
  type AnswerSipCallOptions,
  answerSipCall as answerOnOpenAI,
  type IncomingSipCall,
  OpenAISipWebhookError,
  OpenAISipWebhookHandler,
  type SipCall,
  sipHeader,
} from '@parley/openai';
import { startRealtimeSimulator } from '@parley/simulator';
import { afterEach, expect, test } from 'vitest';

const SECRET = `whsec_${Buffer.from('the telephony guide signs with this').toString('base64')}`;
const API_KEY = 'sk-telephony-guide';

const telephonyDoc = readFileSync(new URL('../../docs/telephony.md', import.meta.url), 'utf8');

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

test('the answerSipCall server of docs/telephony.md answers a signed call on its sideband and refuses a forged one', async () => {
  const sim = await startRealtimeSimulator({
    clock: new ManualClock(),
    auth: { kind: 'openai', apiKeys: [API_KEY] },
  });
  cleanups.push(() => sim.close());
  const process = { env: { OPENAI_WEBHOOK_SECRET: SECRET } as Record<string, string | undefined> };
  const failures: unknown[][] = [];
  const console = { error: (...parts: unknown[]) => failures.push(parts) };
  const answered: Promise<SipCall<unknown>>[] = [];
  const answerSipCall = <TContext>(call: IncomingSipCall, options: AnswerSipCallOptions<TContext>) => {
    const answering = answerOnOpenAI(call, {
      ...options,
      apiKey: API_KEY,
      baseURL: sim.httpBaseURL,
      realtimeURL: sim.url,
    });
    answered.push(answering as Promise<SipCall<unknown>>);
    return answering;
  };
  const servers: Server[] = [];
  const createServer = (listener: RequestListener) => {
    const server = createHttpServer(listener);
    servers.push(server);
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    return { listen: (_port: number) => server.listen(0, '127.0.0.1') };
  };

  // #region server
  const webhooks = new OpenAISipWebhookHandler({
    secret: process.env.OPENAI_WEBHOOK_SECRET ?? '',
    onCall: (call) => {
      if (call.api !== 'realtime') return;
      // Untrusted: a hint for the greeting, never an identity.
      const claimed = sipHeader(call, 'X-Customer-Id') ?? 'unknown';
      // Answer without awaiting the conversation: OpenAI waits for the webhook's reply.
      void answerSipCall(call, {
        agent: new Agent({
          name: 'Support',
          instructions: `Help the caller (claims to be ${claimed}; unverified).`,
        }),
      }).catch((error: unknown) => console.error('call failed', error));
    },
  });

  createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      await webhooks.handle({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200).end();
    } catch (error) {
      response.writeHead(error instanceof OpenAISipWebhookError ? error.status : 500).end();
    }
  }).listen(8000);
  // #endregion server

  expect(telephonyDoc).toContain(await codeRegion(import.meta.url, 'server'));
  const server = servers[0] as Server;
  if (!server.listening) await once(server, 'listening');
  const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  const forged = await sim.incomingSipCall({
    webhookUrl,
    secret: `whsec_${Buffer.from('not the secret').toString('base64')}`,
  });
  expect(forged.statuses).toEqual([401]);
  expect(answered).toEqual([]);
  expect(sim.call(forged.callId)?.state).toBe('ringing');

  const incoming = await sim.incomingSipCall({
    webhookUrl,
    secret: SECRET,
    sipHeaders: [
      { name: 'From', value: '<sip:+14155550100@carrier.example>' },
      { name: 'X-Customer-Id', value: 'cust_42' },
    ],
  });
  expect(incoming.statuses).toEqual([200]);
  expect(answered).toHaveLength(1);
  const call = await (answered[0] as Promise<SipCall<unknown>>);
  cleanups.push(() => call.hangUp());
  expect(call.session.status).toBe('connected');
  expect(sim.call(incoming.callId)).toMatchObject({
    state: 'accepted',
    control: [{ action: 'accept', session: { type: 'realtime', model: 'gpt-realtime' } }],
  });
  const sideband = await sim.waitForConnection(0);
  expect(sideband.path).toBe(`/v1/realtime?call_id=${incoming.callId}`);
  await sideband.waitForClientEvent('session.update');
  expect(sideband.session.instructions).toBe('Help the caller (claims to be cust_42; unverified).');
  expect(failures).toEqual([]);
});
