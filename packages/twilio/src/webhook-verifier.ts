import { createHash, timingSafeEqual } from 'node:crypto';

import { type Clock, UserError } from '@parley/core';
import { brand, invalidOption, optionKeys, resolveClockOption } from '@parley/core/internal';
import { TwilioWebhookError } from './errors.js';
import { signedUrlVariants, type TwilioWebhookParams, twilioSignature } from './webhook-signature.js';

/** Options of {@link TwilioWebhookVerifier}. */
export interface TwilioWebhookVerifierOptions {
  /** The account's auth token (the signing key). Never appears in an error. */
  authToken: string;
  /** How long a signed request is remembered to refuse its replay. Default 300 000 ms (5 minutes). */
  replayWindowMs?: number;
  /** At most this many requests are remembered (the oldest are forgotten first). Default 100 000. */
  maxRemembered?: number;
  /** The clock of the replay window. Default: the system clock. */
  clock?: Clock;
}

/** One request to verify. */
export interface TwilioWebhookRequest {
  /** The full URL Twilio requested, as configured in Twilio (scheme, host, path and query). */
  url: string;
  /** The `X-Twilio-Signature` header (a missing one is refused). */
  signature: string | readonly string[] | undefined;
  /**
   * The POST parameters: the raw `application/x-www-form-urlencoded` body as a string, or already parsed (Express's
   * `req.body`, `URLSearchParams`). Leave out for a GET or a WebSocket upgrade.
   */
  body?: string | TwilioWebhookParams;
}

const OPTIONS = optionKeys<TwilioWebhookVerifierOptions>('TwilioWebhookVerifierOptions', {
  authToken: true,
  replayWindowMs: true,
  maxRemembered: true,
  clock: true,
});

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Authenticates Twilio's webhooks (an incoming call, a status callback, a stream's upgrade request): the
 * `X-Twilio-Signature` must be Twilio's HMAC-SHA1 of the URL and POST parameters with the auth token (compared in
 * constant time), and a request already accepted within the replay window is refused.
 */
export class TwilioWebhookVerifier {
  static {
    brand(TwilioWebhookVerifier, 'twilio.TwilioWebhookVerifier');
  }

  readonly #authToken: string;
  readonly #windowMs: number;
  readonly #max: number;
  readonly #clock: Clock;
  /** Accepted requests by key, in acceptance order, with when they were accepted. */
  readonly #seen = new Map<string, number>();

  constructor(options: TwilioWebhookVerifierOptions) {
    OPTIONS.check(options ?? {});
    if (typeof options?.authToken !== 'string' || options.authToken.length === 0) {
      throw new UserError(
        'TwilioWebhookVerifier needs authToken: your Twilio auth token (e.g. process.env.TWILIO_AUTH_TOKEN).',
        {
          code: 'invalid_option',
        },
      );
    }
    const windowMs = options.replayWindowMs ?? 300_000;
    const max = options.maxRemembered ?? 100_000;
    if (!Number.isFinite(windowMs) || windowMs < 0) {
      throw new UserError(`replayWindowMs must be a number of milliseconds >= 0, got ${String(windowMs)}.`, {
        code: 'invalid_option',
      });
    }
    if (!Number.isInteger(max) || max < 1) {
      throw new UserError(`maxRemembered must be an integer >= 1, got ${String(max)}.`, {
        code: 'invalid_option',
      });
    }
    this.#authToken = options.authToken;
    this.#windowMs = windowMs;
    this.#max = max;
    this.#clock = resolveClockOption(options.clock, invalidOption);
  }

  /**
   * Throws {@link TwilioWebhookError} (answer HTTP 403) unless `request` is signed by Twilio with this auth token
   * and was not accepted before within the replay window.
   */
  verify(request: TwilioWebhookRequest): void {
    const signature = Array.isArray(request.signature) ? request.signature[0] : request.signature;
    if (typeof signature !== 'string' || signature.length === 0) {
      throw new TwilioWebhookError(
        'twilio_signature_missing',
        'The request has no X-Twilio-Signature header: refused.',
      );
    }
    const params =
      typeof request.body === 'string' ? new URLSearchParams(request.body) : (request.body ?? {});
    const valid = signedUrlVariants(request.url).some((url) =>
      safeEqual(twilioSignature(this.#authToken, url, params), signature),
    );
    if (!valid) {
      throw new TwilioWebhookError(
        'twilio_signature_invalid',
        'The X-Twilio-Signature does not match this URL and body for the configured auth token: refused. Check that ' +
          'the URL is the one configured in Twilio (scheme, host, port, path, query) and that the body is unmodified.',
      );
    }
    const now = this.#clock.now();
    this.#forget(now);
    // The signature covers the URL and the body: with the URL it names the request (its body included).
    const key = createHash('sha256').update(signature).update('\n').update(request.url).digest('base64');
    if (this.#seen.has(key)) {
      throw new TwilioWebhookError(
        'twilio_request_replayed',
        'This signed request was already accepted: a replay, refused.',
      );
    }
    this.#seen.set(key, now);
    if (this.#seen.size > this.#max) this.#seen.delete(this.#seen.keys().next().value as string);
  }

  /** `true` when {@link verify} accepts `request` (and remembers it), `false` when it refuses it. */
  check(request: TwilioWebhookRequest): boolean {
    try {
      this.verify(request);
      return true;
    } catch (error) {
      if (error instanceof TwilioWebhookError) return false;
      throw error;
    }
  }

  #forget(now: number): void {
    for (const [key, at] of this.#seen) {
      if (now - at < this.#windowMs) break;
      this.#seen.delete(key);
    }
  }
}
