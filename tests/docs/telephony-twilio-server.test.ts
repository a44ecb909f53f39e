// The deployable server of docs/telephony.md, run as written against the Realtime simulator on loopback. Only the
// environment differs, through the names the example uses: `process` holds its environment and records the SIGTERM
// handler (the test runs it to shut down), `createServer(…).listen(8080)` listens on a free loopback port,
// `OpenAIRealtimeModel` points at the simulator, and `console.log` is collected. The test checks that
// docs/telephony.md shows this code.
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { codeRegion } from '@parley/conformance';
import { Agent, RealtimeSession, ReportedPlaybackTracker, tool } from '@parley/core';
import { OpenAIRealtimeModel as OpenAIModel } from '@parley/openai';
import { FastForwardClock, startRealtimeSimulator } from '@parley/simulator';
import {
  connectStreamTwiml,
  TwilioMediaStreamServer,
  TwilioWebhookVerifier,
  twilioSignature,
} from '@parley/twilio';
import { SimulatedCaller } from '@parley/twilio/testing';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { callerSays } from '../../packages/twilio/test/helpers.js';

const telephonyDoc = readFileSync(new URL('../../docs/telephony.md', import.meta.url), 'utf8');

test('the deployable server of docs/telephony.md answers a signed webhook, runs the call it connects and shuts down', async () => {
  const clock = new FastForwardClock();
  const sim = await startRealtimeSimulator({ clock });
  const logged: string[] = [];
  const console = { log: (line: string) => logged.push(line) };
  const shutdown: (() => Promise<void>)[] = [];
  const process = {
    env: {
      PUBLIC_HOST: 'phone.example.com',
      TWILIO_AUTH_TOKEN: 'tw-auth-token',
      OPENAI_API_KEY: 'sk-test',
    } as Record<string, string | undefined>,
    on: (_signal: 'SIGTERM', handler: () => Promise<void>) => void shutdown.push(handler),
  };
  class OpenAIRealtimeModel extends OpenAIModel {
    constructor(options: ConstructorParameters<typeof OpenAIModel>[0]) {
      super({ ...options, url: sim.url });
    }
  }
  const createServer = (listener: RequestListener) => {
    const server = createHttpServer(listener);
    const listen = server.listen.bind(server);
    server.listen = ((_port: number) => listen(0, '127.0.0.1')) as typeof server.listen;
    return server;
  };

  // #region server
  const PUBLIC_HOST = process.env.PUBLIC_HOST ?? 'phone.example.com';
  const verifier = new TwilioWebhookVerifier({ authToken: process.env.TWILIO_AUTH_TOKEN ?? '' });

  const lookUpOrder = tool({
    name: 'look_up_order',
    description: 'The status of an order',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => `Order ${orderId} shipped yesterday.`,
  });
  const agent = new Agent({
    name: 'Receptionist',
    instructions: 'You answer the phone for Acme. Be brief.',
    tools: [lookUpOrder],
  });

  const streams = new TwilioMediaStreamServer({
    path: '/media',
    // Twilio signs the stream's upgrade request too (over the wss:// URL of your TwiML).
    authorize: (request) =>
      verifier.check({
        url: `wss://${PUBLIC_HOST}${request.url}`,
        signature: request.headers['x-twilio-signature'],
      }),
    session: (start) =>
      new RealtimeSession(agent, {
        model: new OpenAIRealtimeModel({ apiKey: process.env.OPENAI_API_KEY }),
        context: { from: start.customParameters.from },
        playbackTracker: new ReportedPlaybackTracker(),
        config: { inputAudioFormat: 'g711_ulaw', outputAudioFormat: 'g711_ulaw', voice: 'marin' },
      }),
    dtmfMessage: (digit) => `The caller pressed ${digit}.`,
    onCall: (call) => {
      call.on('dtmf', ({ digit }) => console.log(`pressed ${digit}`));
      call.on('ended', ({ reason }) => console.log(`call ended: ${reason}`));
    },
  });

  async function readBody(request: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  const server = createServer(async (request, response) => {
    if (request.method !== 'POST' || request.url !== '/incoming-call') {
      response.writeHead(404).end();
      return;
    }
    const body = await readBody(request);
    const signed = verifier.check({
      url: `https://${PUBLIC_HOST}${request.url}`,
      signature: request.headers['x-twilio-signature'],
      body,
    });
    if (!signed) {
      response.writeHead(403).end();
      return;
    }
    const from = new URLSearchParams(body).get('From') ?? '';
    response.writeHead(200, { 'content-type': 'text/xml' });
    response.end(connectStreamTwiml({ url: `wss://${PUBLIC_HOST}/media`, parameters: { from } }));
  });
  server.on('upgrade', (request, socket, head) => {
    if (!streams.handleUpgrade(request, socket, head)) socket.destroy();
  });
  server.listen(8080);

  process.on('SIGTERM', async () => {
    await streams.close(); // ends every call (sessions closed, turns reported)
    server.close();
  });
  // #endregion server

  expect(telephonyDoc).toContain(await codeRegion(import.meta.url, 'server'));
  try {
    if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const params = { CallSid: 'CA1', From: '+15550100', To: '+15550199' };
    const body = new URLSearchParams(params).toString();
    const post = (signature?: string) =>
      fetch(`http://127.0.0.1:${port}/incoming-call`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(signature !== undefined && { 'x-twilio-signature': signature }),
        },
        body,
      });
    const signature = twilioSignature('tw-auth-token', 'https://phone.example.com/incoming-call', params);
    expect((await post()).status).toBe(403);
    expect(
      (await post(twilioSignature('wrong-token', 'https://phone.example.com/incoming-call', params))).status,
    ).toBe(403);
    const answered = await post(signature);
    expect(answered.status).toBe(200);
    expect(await answered.text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="wss://phone.example.com/media">' +
        '<Parameter name="from" value="+15550100"/></Stream></Connect></Response>',
    );
    expect((await post(signature)).status).toBe(403); // the same webhook again: a replay

    sim.script(
      { type: 'function_call', name: 'look_up_order', arguments: { orderId: 'A1' } },
      { type: 'message', text: 'Order A1 shipped yesterday.', audioMs: 1200 },
    );
    const caller = await SimulatedCaller.dial({
      url: `ws://127.0.0.1:${port}/media`,
      clock,
      headers: { 'X-Twilio-Signature': twilioSignature('tw-auth-token', 'wss://phone.example.com/media') },
      customParameters: { from: '+15550100' },
    });
    caller.say(callerSays('where is my order'));
    await caller.until((c) => c.heardBytes >= 1200 * 8);
    const call = [...streams.calls][0];
    expect(call?.session?.context).toEqual({ from: '+15550100' });
    expect(JSON.stringify(call?.session?.history)).toContain('Order A1 shipped yesterday.');
    caller.pressDigit('9');
    await caller.until(() => logged.includes('pressed 9'));
    await caller.hangUp();
    await call?.ended;
    expect(logged).toEqual(['pressed 9', 'call ended: stop']);
  } finally {
    // SIGTERM, as the example handles it: every call ended, then the server closed.
    expect(shutdown).toHaveLength(1);
    const closed = new Promise((resolve) => server.once('close', resolve));
    await shutdown[0]?.();
    await closed;
    expect(streams.calls.size).toBe(0);
    await sim.close();
  }
});
