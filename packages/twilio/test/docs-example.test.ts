// The deployable server of docs/telephony.md, as written there; only the environment differs: the model points at the
// Realtime simulator, the server listens on a free loopback port, and console.log is collected.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, RealtimeSession, ReportedPlaybackTracker, tool } from '@parley/core';
import { OpenAIRealtimeModel } from '@parley/openai';
import { FastForwardClock, startRealtimeSimulator } from '@parley/openai/testing';
import {
  connectStreamTwiml,
  TwilioMediaStreamServer,
  TwilioWebhookVerifier,
  twilioSignature,
} from '@parley/twilio';
import { SimulatedCaller } from '@parley/twilio/testing';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { callerSays } from './helpers.js';

test('the deployable server of docs/telephony.md answers a signed webhook and runs the call it connects', async () => {
  const clock = new FastForwardClock();
  const sim = await startRealtimeSimulator({ clock });
  const logged: string[] = [];
  const console = { log: (line: string) => logged.push(line) };
  const process = {
    env: {
      PUBLIC_HOST: 'phone.example.com',
      TWILIO_AUTH_TOKEN: 'tw-auth-token',
      OPENAI_API_KEY: 'sk-test',
    } as Record<string, string | undefined>,
  };

  // ── docs/telephony.md, "A deployable server" ──
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
    authorize: (request) =>
      verifier.check({
        url: `wss://${PUBLIC_HOST}${request.url}`,
        signature: request.headers['x-twilio-signature'],
      }),
    session: (start) =>
      new RealtimeSession(agent, {
        model: new OpenAIRealtimeModel({ apiKey: process.env.OPENAI_API_KEY, url: sim.url }),
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
  // ── end of the example (it listens on 8080; here a free port) ──
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  try {
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
    await streams.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await sim.close();
  }
});
