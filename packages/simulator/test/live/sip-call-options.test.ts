import { Agent } from '@parley/core';
import { ManualClock } from '@parley/mock';
import {
  type AnswerSipCallOptions,
  answerSipCall,
  type IncomingSipCall,
  SipCallOptionError,
} from '@parley/openai';
import type { LiveSimulator } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { startPhoneApp } from '../sip-phone-app.js';
import { closeAfterTest, liveSimulator } from './live-rig.js';

const SECRET = `whsec_${Buffer.from('the GPT-Live simulator signs call options').toString('base64')}`;
const API_KEY = 'sk-live-sip-options';

/** A call the app was told of and left ringing: the test answers it. */
async function ringingCall(sim: LiveSimulator): Promise<IncomingSipCall> {
  const app = closeAfterTest(await startPhoneApp(SECRET, () => undefined));
  const incoming = await sim.incomingSipCall({ webhookUrl: app.webhookUrl, secret: SECRET });
  expect(incoming.statuses).toEqual([200]);
  expect(app.calls).toHaveLength(1);
  return app.calls[0] as IncomingSipCall;
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
