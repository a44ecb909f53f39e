import type { Clock } from '@parley/core';
import { connectStreamTwiml, TwilioWebhookVerifier, twilioSignature } from '@parley/twilio';
import { describe, expect, test } from 'vitest';

/** A clock the test moves by hand. */
function handClock(): Clock & { advance(ms: number): void } {
  let now = 0;
  return {
    now: () => now,
    setTimeout: () => 0,
    clearTimeout: () => {},
    advance(ms) {
      now += ms;
    },
  };
}

const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS = {
  CallSid: 'CA1234567890ABCDE',
  Caller: '+14158675310',
  Digits: '1234',
  From: '+14158675310',
  To: '+18005551212',
};
// Twilio's documented example: auth token 12345, this URL and these parameters.
const SIGNATURE = 'GvWf1cFY/Q7PnoempGyD5oXAezc=';
const BODY = new URLSearchParams(PARAMS).toString();

describe('X-Twilio-Signature', () => {
  test("matches Twilio's documented example", () => {
    expect(twilioSignature('12345', URL_, PARAMS)).toBe(SIGNATURE);
  });

  test('a request signed with the auth token is accepted: raw form body, parsed body, URL with the default port', () => {
    expect(() =>
      new TwilioWebhookVerifier({ authToken: '12345' }).verify({
        url: URL_,
        signature: SIGNATURE,
        body: BODY,
      }),
    ).not.toThrow();
    expect(() =>
      new TwilioWebhookVerifier({ authToken: '12345' }).verify({
        url: URL_,
        signature: SIGNATURE,
        body: PARAMS,
      }),
    ).not.toThrow();
    const withPort = 'https://mycompany.com:443/myapp.php?foo=1&bar=2';
    expect(
      new TwilioWebhookVerifier({ authToken: '12345' }).check({
        url: withPort,
        signature: SIGNATURE,
        body: BODY,
      }),
    ).toBe(true);
  });

  test('unsigned, wrong secret, tampered body or URL: refused with a 403 error that never shows the secret', () => {
    const verifier = new TwilioWebhookVerifier({ authToken: '12345' });
    const refused = (request: Parameters<TwilioWebhookVerifier['verify']>[0]) => {
      try {
        verifier.verify(request);
      } catch (error) {
        expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain(
          '12345',
        );
        return error as { code: string; status: number };
      }
      throw new Error('accepted');
    };
    expect(refused({ url: URL_, signature: undefined, body: BODY })).toMatchObject({
      code: 'twilio_signature_missing',
      status: 403,
    });
    const wrongSecret = twilioSignature('54321', URL_, PARAMS);
    expect(refused({ url: URL_, signature: wrongSecret, body: BODY })).toMatchObject({
      code: 'twilio_signature_invalid',
      status: 403,
    });
    expect(refused({ url: URL_, signature: SIGNATURE, body: BODY.replace('1234', '9999') })).toMatchObject({
      code: 'twilio_signature_invalid',
    });
    expect(refused({ url: `${URL_}&x=1`, signature: SIGNATURE, body: BODY })).toMatchObject({
      code: 'twilio_signature_invalid',
    });
    // A refused request is not remembered: the genuine one still passes.
    expect(verifier.check({ url: URL_, signature: SIGNATURE, body: BODY })).toBe(true);
  });

  test('a replay within the window is refused; after the window it is a new request', () => {
    const clock = handClock();
    const verifier = new TwilioWebhookVerifier({ authToken: '12345', replayWindowMs: 60_000, clock });
    verifier.verify({ url: URL_, signature: SIGNATURE, body: BODY });
    clock.advance(59_000);
    expect(() => verifier.verify({ url: URL_, signature: SIGNATURE, body: BODY })).toThrow(
      expect.objectContaining({ code: 'twilio_request_replayed' }),
    );
    clock.advance(1_000);
    expect(verifier.check({ url: URL_, signature: SIGNATURE, body: BODY })).toBe(true);
  });

  test('bad options fail at construction, naming what to pass', () => {
    expect(() => new TwilioWebhookVerifier({ authToken: '' })).toThrow(/authToken/);
    expect(() => new TwilioWebhookVerifier({ authToken: 'x', replayWindowMS: 1 } as never)).toThrow(
      expect.objectContaining({ code: 'unknown_option', message: expect.stringContaining('replayWindowMs') }),
    );
  });
});

describe('connectStreamTwiml', () => {
  test('connects the call to the stream with XML-escaped custom parameters', () => {
    expect(
      connectStreamTwiml({
        url: 'wss://example.com/media/a&b',
        parameters: { customer: 'Ann & "Bob" <x>', "caller's": "it's" },
        say: 'Calls are recorded & reviewed.',
      }),
    ).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Say>Calls are recorded &amp; reviewed.</Say><Connect>' +
        '<Stream url="wss://example.com/media/a&amp;b">' +
        '<Parameter name="customer" value="Ann &amp; &quot;Bob&quot; &lt;x&gt;"/>' +
        '<Parameter name="caller&apos;s" value="it&apos;s"/>' +
        '</Stream></Connect></Response>',
    );
  });

  test('refuses a URL that is not wss:// or has a query string (Twilio drops it), and unknown options', () => {
    expect(() => connectStreamTwiml({ url: 'ws://example.com/media' })).toThrow(/wss:\/\//);
    expect(() => connectStreamTwiml({ url: 'wss://example.com/media?token=1' })).toThrow(/no query string/);
    expect(() => connectStreamTwiml({ url: 'wss://example.com/media', params: {} } as never)).toThrow(
      expect.objectContaining({ code: 'unknown_option' }),
    );
  });
});
