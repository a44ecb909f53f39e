import { Agent, ServiceUnreachableError, UnknownOptionError, UserError } from '@parley/core';
import { ManualClock } from '@parley/mock';
import {
  answerSipCall,
  type IncomingSipCall,
  OpenAINotFoundError,
  OpenAISipCallControl,
  OpenAISipWebhookHandler,
  SipCallOptionError,
} from '@parley/openai';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { settleWithClock } from '../responses/helpers.js';
import { liveIncoming, NOW_MS, realtimeIncoming, SECRET, signedWebhook } from './signed-webhook.js';

const API_KEY = 'sk-test-sip-control-0123456789';
const requests: { method: string; url: string; auth: string | null; type: string | null; body: unknown }[] =
  [];
let reply: (url: string) => Response = () => new HttpResponse(null, { status: 200 });

const server = setupServer(
  http.post(
    /^https:\/\/(api\.openai\.com|proxy\.example)\/v1\/(realtime\/calls|live\/sessions)\//,
    async ({ request }) => {
      const text = await request.text();
      requests.push({
        method: request.method,
        url: request.url,
        auth: request.headers.get('authorization'),
        type: request.headers.get('content-type'),
        body: text ? JSON.parse(text) : undefined,
      });
      return reply(request.url);
    },
  ),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  requests.length = 0;
  reply = () => new HttpResponse(null, { status: 200 });
});
afterAll(() => server.close());

const realtime = { api: 'realtime', callId: 'rtc_abc' } as const;
const live = { api: 'live', sessionId: 'live_xyz' } as const;

describe('OpenAISipCallControl', () => {
  test('Realtime: accept, reject, refer and hang up POST to /v1/realtime/calls/{id}/…', async () => {
    const control = new OpenAISipCallControl({ apiKey: API_KEY });
    await control.accept(realtime, { instructions: 'Be brief.', audio: { output: { voice: 'marin' } } });
    await control.reject(realtime, { statusCode: 486 });
    await control.refer(realtime, 'tel:+14155550123');
    await control.hangUp(realtime);
    expect(requests).toEqual([
      {
        method: 'POST',
        url: 'https://api.openai.com/v1/realtime/calls/rtc_abc/accept',
        auth: `Bearer ${API_KEY}`,
        type: 'application/json',
        body: {
          type: 'realtime',
          model: 'gpt-realtime',
          instructions: 'Be brief.',
          audio: { output: { voice: 'marin' } },
        },
      },
      expect.objectContaining({
        url: 'https://api.openai.com/v1/realtime/calls/rtc_abc/reject',
        body: { status_code: 486 },
      }),
      expect.objectContaining({
        url: 'https://api.openai.com/v1/realtime/calls/rtc_abc/refer',
        body: { target_uri: 'tel:+14155550123' },
      }),
      expect.objectContaining({ url: 'https://api.openai.com/v1/realtime/calls/rtc_abc/hangup', body: {} }),
    ]);
  });

  test('GPT-Live: accept wraps the session with type "live"; reject defaults to 603; paths under /v1/live/sessions', async () => {
    const control = new OpenAISipCallControl({ apiKey: API_KEY, baseURL: 'https://proxy.example/v1' });
    await control.accept(live, { model: 'gpt-live-1', instructions: 'Hello.', safety_identifier: 'user-7' });
    await control.reject(live);
    await control.refer(live, 'sip:desk@example.com');
    await control.hangUp(live);
    expect(requests.map(({ url, body }) => [url, body])).toEqual([
      [
        'https://proxy.example/v1/live/sessions/live_xyz/accept',
        {
          session: { type: 'live', model: 'gpt-live-1', instructions: 'Hello.', safety_identifier: 'user-7' },
        },
      ],
      ['https://proxy.example/v1/live/sessions/live_xyz/reject', { status_code: 603 }],
      ['https://proxy.example/v1/live/sessions/live_xyz/refer', { target_uri: 'sip:desk@example.com' }],
      ['https://proxy.example/v1/live/sessions/live_xyz/hangup', {}],
    ]);
    expect(requests.every((request) => request.auth === `Bearer ${API_KEY}`)).toBe(true);
  });

  test('the call from the webhook handler is what call control takes', async () => {
    const control = new OpenAISipCallControl({ apiKey: API_KEY });
    const handler = new OpenAISipWebhookHandler({
      secret: SECRET,
      now: () => NOW_MS,
      onCall: async (call: IncomingSipCall) => {
        if (call.api === 'live') await control.reject(call, { statusCode: 486 });
        else await control.accept(call, { instructions: 'Hi.' });
      },
    });
    await handler.handle(signedWebhook(realtimeIncoming('rtc_9')));
    await handler.handle(signedWebhook(liveIncoming('live_9')));
    expect(requests.map((request) => request.url)).toEqual([
      'https://api.openai.com/v1/realtime/calls/rtc_9/accept',
      'https://api.openai.com/v1/live/sessions/live_9/reject',
    ]);
  });

  test('invalid arguments fail before any request', async () => {
    const control = new OpenAISipCallControl({ apiKey: API_KEY });
    for (const statusCode of [200, 299, 700, 486.5]) {
      await expect(control.reject(live, { statusCode })).rejects.toThrow(/between 300 and 699/);
    }
    await expect(control.refer(realtime, 'https://example.com')).rejects.toThrow(UserError);
    await expect(
      control.accept(live, { audio: { format: { type: 'audio/pcmu' } } } as never),
    ).rejects.toThrow(/SIP negotiates the media/);
    await expect(control.hangUp({ api: 'live' } as never)).rejects.toThrow(/sessionId/);
    expect(requests).toEqual([]);
    expect(() => new OpenAISipCallControl({ apiKey: API_KEY, structuredOutput: {} } as never)).toThrow(
      UnknownOptionError,
    );
  });

  test('an HTTP error is the package typed API error, without the key', async () => {
    reply = () =>
      HttpResponse.json(
        {
          error: { type: 'invalid_request_error', code: 'call_not_found', message: `No call for ${API_KEY}` },
        },
        { status: 404, headers: { 'x-request-id': 'req_1' } },
      );
    const control = new OpenAISipCallControl({ apiKey: API_KEY, maxRetries: 0 });
    const error = await control.accept(realtime).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(OpenAINotFoundError);
    expect(error).toMatchObject({ code: 'call_not_found', status: 404, requestId: 'req_1' });
    expect((error as Error).message).not.toContain(API_KEY);
  });

  test('a 5xx is retried; an unreachable API is a ServiceUnreachableError', async () => {
    let attempts = 0;
    reply = () => {
      attempts += 1;
      return attempts === 1
        ? new HttpResponse('busy', { status: 503 })
        : new HttpResponse(null, { status: 200 });
    };
    const clock = new ManualClock();
    const control = new OpenAISipCallControl({ apiKey: API_KEY, maxRetries: 1, clock });
    await settleWithClock(clock, control.hangUp(realtime), 100);
    expect(requests.map((request) => request.url)).toEqual([
      'https://api.openai.com/v1/realtime/calls/rtc_abc/hangup',
      'https://api.openai.com/v1/realtime/calls/rtc_abc/hangup',
    ]);
    const offline = new OpenAISipCallControl({
      apiKey: API_KEY,
      maxRetries: 0,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    await expect(offline.hangUp(realtime)).rejects.toThrow(ServiceUnreachableError);
  });
});

describe('answerSipCall', () => {
  test('an unknown option is refused before the call is accepted or a sideband opened', async () => {
    const control = new OpenAISipCallControl({ apiKey: API_KEY });
    const call: IncomingSipCall = {
      api: 'realtime',
      eventType: 'realtime.call.incoming',
      callId: 'rtc_abc',
      webhookId: 'wh_1',
      sipHeaders: [],
    };
    const answering = answerSipCall(call, {
      agent: new Agent({ name: 'Support' }),
      control,
      realtimeUrl: 'wss://proxy.example/v1/realtime',
    } as Parameters<typeof answerSipCall>[1]);
    await expect(answering).rejects.toBeInstanceOf(UnknownOptionError);
    await expect(answering).rejects.toThrow(/realtimeUrl.*realtimeURL/);
    expect(requests).toEqual([]);
  });

  test.each([
    ['delegate', { delegate: new Agent({ name: 'Backend' }) }, /give the agent the tools/],
    ['liveURL', { liveURL: 'wss://proxy.example/v1/live/sessions' }, /realtimeURL/],
  ] as const)(
    'a Realtime call refuses %s (GPT-Live only) before the call is accepted',
    async (option, extra, instead) => {
      const call: IncomingSipCall = {
        api: 'realtime',
        eventType: 'realtime.call.incoming',
        callId: 'rtc_abc',
        webhookId: 'wh_1',
        sipHeaders: [],
      };
      const refused = await answerSipCall(call, {
        agent: new Agent({ name: 'Support' }),
        control: new OpenAISipCallControl({ apiKey: API_KEY }),
        ...extra,
      }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SipCallOptionError);
      expect(refused).toMatchObject({ code: 'invalid_option', option, callApi: 'realtime' });
      expect((refused as Error).message).toMatch(instead);
      expect(requests).toEqual([]);
    },
  );
});
