import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from '@parley/core';
import { ManualClock } from '@parley/mock';
import {
  type AnswerSipCallOptions,
  answerSipCall,
  type IncomingSipCall,
  OpenAISipWebhookHandler,
  SipCallOptionError,
} from '@parley/openai';
import type { LiveSimulator } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { closeAfterTest, liveSimulator } from './live-rig.js';

const SECRET = `whsec_${Buffer.from('the GPT-Live simulator signs call options').toString('base64')}`;
const API_KEY = 'sk-live-sip-options';

/** A webhook endpoint that only records the calls it is told of; the test answers them. */
async function ringingCall(sim: LiveSimulator): Promise<IncomingSipCall> {
  const calls: IncomingSipCall[] = [];
  const handler = new OpenAISipWebhookHandler({ secret: SECRET, onCall: (call) => void calls.push(call) });
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    await handler.handle({ headers: request.headers, body: Buffer.concat(chunks) });
    response.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfterTest({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const incoming = await sim.incomingSipCall({ webhookUrl, secret: SECRET });
  expect(incoming.statuses).toEqual([200]);
  expect(calls).toHaveLength(1);
  return calls[0] as IncomingSipCall;
}

describe('answerSipCall on a GPT-Live call: options only a Realtime call takes are refused before accepting', () => {
  const realtimeOnly: [string, Partial<AnswerSipCallOptions<unknown>>, RegExp][] = [
    ['sessionConfig', { sessionConfig: { max_output_tokens: 200 } }, /accept \(a LiveSipSession\)/],
    ['realtimeURL', { realtimeURL: 'ws://127.0.0.1:1/v1/realtime' }, /liveURL/],
  ];

  test.each(realtimeOnly)(
    '%s: a typed error saying what to use; the call keeps ringing and can still be answered',
    async (option, extra, instead) => {
      const sim = await liveSimulator({ clock: new ManualClock(), apiKeys: [API_KEY] });
      const call = await ringingCall(sim);
      const options: AnswerSipCallOptions<unknown> = {
        agent: new Agent({ name: 'Front desk', instructions: 'Answer the phone. Be brief.' }),
        apiKey: API_KEY,
        baseURL: sim.baseURL,
        liveURL: sim.url,
        WebSocket,
      };
      const refused = await answerSipCall(call, { ...options, ...extra }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SipCallOptionError);
      expect(refused).toMatchObject({ code: 'invalid_option', option, callApi: 'live' });
      expect((refused as Error).message).toMatch(instead);
      // Nothing reached the service: the call was not accepted and no session was opened.
      expect(sim.call(call.api === 'live' ? call.sessionId : '')).toMatchObject({
        state: 'ringing',
        control: [],
      });
      expect(sim.sessions).toEqual([]);

      const answered = await answerSipCall(call, options);
      closeAfterTest({ close: () => answered.hangUp() });
      expect(answered.session.status).toBe('connected');
      expect(sim.call(answered.callId)).toMatchObject({ state: 'accepted' });
    },
  );
});
