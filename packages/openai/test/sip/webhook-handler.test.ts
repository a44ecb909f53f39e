import { UnknownOptionError, UserError } from '@parley/core';
import {
  type IncomingSipCall,
  OpenAISipWebhookError,
  OpenAISipWebhookHandler,
  type OpenAISipWebhookHandlerOptions,
  sipHeader,
} from '@parley/openai';
import { describe, expect, test } from 'vitest';
import { liveIncoming, NOW_MS, realtimeIncoming, SECRET, signedWebhook } from './signed-webhook.js';

function handlerWith(options: Partial<OpenAISipWebhookHandlerOptions> = {}) {
  const calls: IncomingSipCall[] = [];
  let now = NOW_MS;
  const handler = new OpenAISipWebhookHandler({
    secret: SECRET,
    onCall: (call) => {
      calls.push(call);
    },
    now: () => now,
    ...options,
  });
  return { handler, calls, advance: (ms: number) => (now += ms) };
}

async function refusal(promise: Promise<unknown>): Promise<OpenAISipWebhookError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(OpenAISipWebhookError);
  return error as OpenAISipWebhookError;
}

describe('OpenAISipWebhookHandler', () => {
  test('a signed realtime.call.incoming runs onCall with the call id and the SIP headers', async () => {
    const { handler, calls } = handlerWith();
    const outcome = await handler.handle(signedWebhook(realtimeIncoming('rtc_1', 'sip-1'), { id: 'wh_1' }));
    expect(outcome).toEqual({ outcome: 'handled', call: calls[0] });
    expect(calls).toEqual([
      {
        api: 'realtime',
        eventType: 'realtime.call.incoming',
        callId: 'rtc_1',
        webhookId: 'wh_1',
        sipHeaders: [
          { name: 'From', value: '"Ada" <sip:+15551230000@sip.example.com>' },
          { name: 'To', value: 'sip:+15559870000@sip.api.openai.com' },
          { name: 'Call-ID', value: 'sip-1' },
        ],
      },
    ]);
    expect(sipHeader(calls[0] as IncomingSipCall, 'call-id')).toBe('sip-1');
    expect(Object.isFrozen(calls[0]?.sipHeaders)).toBe(true);
  });

  test('live.transport.incoming and the deprecated live.call.incoming both reach onCall as live calls', async () => {
    const { handler, calls } = handlerWith();
    await handler.handle(signedWebhook(liveIncoming('live_a')));
    await handler.handle(signedWebhook(liveIncoming('live_b', undefined, 'live.call.incoming')));
    expect(calls.map((call) => [call.api, call.eventType, call.api === 'live' && call.sessionId])).toEqual([
      ['live', 'live.transport.incoming', 'live_a'],
      ['live', 'live.call.incoming', 'live_b'],
    ]);
  });

  test('a live.transport.incoming that is not SIP, and other event types, are acknowledged and ignored', async () => {
    const { handler, calls } = handlerWith();
    const webrtc = { ...liveIncoming('live_w'), data: { type: 'webrtc', session_id: 'live_w' } };
    expect(await handler.handle(signedWebhook(webrtc, { id: 'wh_w' }))).toEqual({
      outcome: 'ignored',
      type: 'live.transport.incoming',
      webhookId: 'wh_w',
    });
    const other = await handler.handle(signedWebhook({ type: 'response.completed', data: { id: 'resp_1' } }));
    expect(other.outcome).toBe('ignored');
    expect(calls).toEqual([]);
  });

  test('a webhook signed with another secret is refused (401) and the secret appears nowhere', async () => {
    const { handler, calls } = handlerWith();
    const forged = signedWebhook(realtimeIncoming('rtc_1'), {
      secret: `whsec_${Buffer.from('someone-else').toString('base64')}`,
    });
    const error = await refusal(handler.handle(forged));
    expect([error.code, error.status]).toEqual(['sip_webhook_invalid_signature', 401]);
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(
      SECRET.slice(6),
    );
    expect(calls).toEqual([]);
  });

  test('a body changed after signing, or a missing header, is refused', async () => {
    const { handler, calls } = handlerWith();
    const signed = signedWebhook(realtimeIncoming('rtc_1'));
    const tampered = { ...signed, body: signed.body.replace('rtc_1', 'rtc_2') };
    expect((await refusal(handler.handle(tampered))).code).toBe('sip_webhook_invalid_signature');
    const { 'webhook-signature': _, ...unsigned } = signed.headers;
    expect((await refusal(handler.handle({ headers: unsigned, body: signed.body }))).status).toBe(401);
    expect(calls).toEqual([]);
  });

  test('a timestamp outside the tolerance is refused as stale, either way; inside it is accepted', async () => {
    const { handler, calls } = handlerWith({ toleranceMs: 300_000 });
    const old = signedWebhook(realtimeIncoming('rtc_old'), { timestampMs: NOW_MS - 301_000 });
    const future = signedWebhook(realtimeIncoming('rtc_new'), { timestampMs: NOW_MS + 301_000 });
    for (const request of [old, future]) {
      const error = await refusal(handler.handle(request));
      expect([error.code, error.status]).toEqual(['sip_webhook_stale', 401]);
    }
    await handler.handle(signedWebhook(realtimeIncoming('rtc_ok'), { timestampMs: NOW_MS - 299_000 }));
    expect(calls.map((call) => call.api === 'realtime' && call.callId)).toEqual(['rtc_ok']);
  });

  test('a replay of an accepted webhook later than the tolerance is refused as stale', async () => {
    const { handler, calls, advance } = handlerWith();
    const request = signedWebhook(realtimeIncoming('rtc_1'));
    await handler.handle(request);
    advance(10 * 60_000);
    expect((await refusal(handler.handle(request))).code).toBe('sip_webhook_stale');
    expect(calls).toHaveLength(1);
  });

  test('a signed but malformed webhook is refused with 400', async () => {
    const { handler } = handlerWith();
    const noId = { type: 'realtime.call.incoming', data: { sip_headers: [] } };
    const badHeaders = { type: 'live.call.incoming', data: { session_id: 'live_1', sip_headers: 'From: x' } };
    for (const event of [noId, badHeaders, ['not', 'an', 'event']]) {
      const error = await refusal(handler.handle(signedWebhook(event)));
      expect([error.code, error.status]).toEqual(['sip_webhook_malformed', 400]);
    }
    const notJson = signedWebhook(undefined, { rawBody: 'not json' });
    expect((await refusal(handler.handle(notJson))).code).toBe('sip_webhook_malformed');
    const badTimestamp = signedWebhook(realtimeIncoming('rtc_1'));
    badTimestamp.headers['webhook-timestamp'] = 'yesterday';
    expect((await refusal(handler.handle(badTimestamp))).status).toBe(400);
  });

  test('the same webhook delivered twice runs onCall once', async () => {
    const { handler, calls, advance } = handlerWith();
    const first = signedWebhook(realtimeIncoming('rtc_1'), { id: 'wh_dup' });
    advance(30_000);
    // The retry is signed again at a later time, with the same webhook-id.
    const retry = signedWebhook(realtimeIncoming('rtc_1'), { id: 'wh_dup', timestampMs: NOW_MS + 30_000 });
    expect((await handler.handle(first)).outcome).toBe('handled');
    expect(await handler.handle(retry)).toEqual({ outcome: 'duplicate', of: 'webhook', webhookId: 'wh_dup' });
    expect(calls).toHaveLength(1);
  });

  test('concurrent deliveries of one call run onCall once, even while the first is still running', async () => {
    let release = () => {};
    const runs: string[] = [];
    const { handler } = handlerWith({
      onCall: async (call) => {
        runs.push(call.webhookId);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    });
    const first = handler.handle(signedWebhook(realtimeIncoming('rtc_1'), { id: 'wh_a' }));
    const second = await handler.handle(signedWebhook(realtimeIncoming('rtc_1'), { id: 'wh_b' }));
    expect(second).toEqual({ outcome: 'duplicate', of: 'call', webhookId: 'wh_b' });
    release();
    expect((await first).outcome).toBe('handled');
    expect(runs).toEqual(['wh_a']);
  });

  test('one INVITE announced by a Realtime and a GPT-Live webhook runs onCall once (same SIP Call-ID)', async () => {
    const { handler, calls } = handlerWith();
    await handler.handle(signedWebhook(liveIncoming('live_1', 'invite-42')));
    const realtime = await handler.handle(signedWebhook(realtimeIncoming('rtc_1', 'invite-42')));
    const deprecated = await handler.handle(
      signedWebhook(liveIncoming('live_1', undefined, 'live.call.incoming')),
    );
    expect([realtime.outcome, deprecated.outcome]).toEqual(['duplicate', 'duplicate']);
    expect(calls.map((call) => call.api)).toEqual(['live']);
    // A different INVITE is a different call.
    await handler.handle(signedWebhook(realtimeIncoming('rtc_2', 'invite-43')));
    expect(calls.map((call) => call.api)).toEqual(['live', 'realtime']);
  });

  test('onCall that throws is not run again for a retry; the error reaches the caller', async () => {
    let runs = 0;
    const { handler } = handlerWith({
      onCall: () => {
        runs += 1;
        throw new Error('database down');
      },
    });
    await expect(handler.handle(signedWebhook(realtimeIncoming('rtc_1'), { id: 'wh_x' }))).rejects.toThrow(
      'database down',
    );
    expect((await handler.handle(signedWebhook(realtimeIncoming('rtc_1'), { id: 'wh_x' }))).outcome).toBe(
      'duplicate',
    );
    expect(runs).toBe(1);
  });

  test('memory is bounded: the oldest webhook ids are forgotten beyond maxRemembered', async () => {
    const { handler, calls } = handlerWith({ maxRemembered: 2 });
    for (const id of ['a', 'b', 'c']) await handler.handle(signedWebhook({ type: 'ping' }, { id }));
    expect((await handler.handle(signedWebhook({ type: 'ping' }, { id: 'c' }))).outcome).toBe('duplicate');
    expect((await handler.handle(signedWebhook({ type: 'ping' }, { id: 'a' }))).outcome).toBe('ignored');
    expect(calls).toEqual([]);
  });

  test('fetch() answers 200, or the refusal status with its code and no secret', async () => {
    const { handler, calls } = handlerWith();
    const post = (request: { headers: Record<string, string>; body: string }) =>
      handler.fetch(new Request('https://agent.example/sip', { method: 'POST', ...request }));
    expect((await post(signedWebhook(realtimeIncoming('rtc_1')))).status).toBe(200);
    const refused = await post(signedWebhook(realtimeIncoming('rtc_2'), { secret: `whsec_${btoa('nope')}` }));
    expect(refused.status).toBe(401);
    const body = await refused.text();
    expect(JSON.parse(body).error.code).toBe('sip_webhook_invalid_signature');
    expect(body).not.toContain(SECRET.slice(6));
    expect(calls).toHaveLength(1);
  });

  test('invalid options fail at construction', () => {
    const onCall = () => {};
    expect(() => new OpenAISipWebhookHandler({ secret: '', onCall })).toThrow(UserError);
    expect(() => new OpenAISipWebhookHandler({ secret: 'whsec_!!!not base64', onCall })).toThrow(
      /"whsec_" followed by base64/,
    );
    expect(() => new OpenAISipWebhookHandler({ secret: SECRET, onCall, toleranceMs: -1 })).toThrow(UserError);
    expect(
      () => new OpenAISipWebhookHandler({ secret: SECRET, onCall, maxRemembered: 1.5 } as never),
    ).toThrow(UserError);
    expect(() => new OpenAISipWebhookHandler({ secret: SECRET, onCall, clock: {} } as never)).toThrow(
      UnknownOptionError,
    );
  });
});
