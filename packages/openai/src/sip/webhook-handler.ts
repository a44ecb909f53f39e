import { brand, invalidOption, optionKeys } from '@parley/core/internal';
import { BoundedMemory } from './bounded-memory.js';
import { OpenAISipWebhookError } from './errors.js';
import { type IncomingSipCall, sipHeader } from './incoming-call.js';
import { parseWebhookPayload } from './webhook-payload.js';
import { StandardWebhookSignature } from './webhook-signature.js';

/** Options of {@link OpenAISipWebhookHandler}. */
export interface OpenAISipWebhookHandlerOptions {
  /** The webhook's signing secret (`whsec_…`) from the OpenAI dashboard. Never appears in an error. */
  secret: string;
  /**
   * Runs once per incoming call: accept, reject or refer it here (see `OpenAISipCallControl`). `handle` awaits it,
   * so return once the call is answered and run the conversation without awaiting it: OpenAI waits for the
   * webhook's answer. It runs at most once per call, whatever it throws.
   */
  onCall: (call: IncomingSipCall) => void | Promise<void>;
  /** How far `webhook-timestamp` may be from the clock, either way. Default 300 000 ms (5 minutes). */
  toleranceMs?: number;
  /** How long webhook ids and calls are remembered to refuse duplicates. Default 3 600 000 ms (1 hour). */
  rememberMs?: number;
  /** At most this many webhook ids, and as many calls, are remembered (the oldest go first). Default 100 000. */
  maxRemembered?: number;
  /** Wall time in ms since the epoch, for the timestamp check and the memory. Default `Date.now`. */
  now?: () => number;
}

/** One webhook request: its headers and its raw, unmodified body (the signature covers the exact bytes). */
export interface OpenAISipWebhookRequest {
  headers: Headers | Readonly<Record<string, string | readonly string[] | undefined>>;
  body: string | Uint8Array;
}

/** What {@link OpenAISipWebhookHandler.handle} did with an authentic webhook (answer each with HTTP 200). */
export type OpenAISipWebhookOutcome =
  /** `onCall` ran for this call. */
  | { outcome: 'handled'; call: IncomingSipCall }
  /** Not run again: this `webhook-id` was handled before (`webhook`), or this call was (`call`). */
  | { outcome: 'duplicate'; of: 'webhook' | 'call'; webhookId: string }
  /** A webhook of another type (not an incoming SIP call): nothing to do. */
  | { outcome: 'ignored'; type: string; webhookId: string };

const OPTIONS = optionKeys<OpenAISipWebhookHandlerOptions>('OpenAISipWebhookHandlerOptions', {
  secret: true,
  onCall: true,
  toleranceMs: true,
  rememberMs: true,
  maxRemembered: true,
  now: true,
});

function header(headers: OpenAISipWebhookRequest['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return typeof found === 'string' ? found : found?.[0];
}

function positive(value: number | undefined, fallback: number, name: string, integer = false): number {
  const result = value ?? fallback;
  if (!Number.isFinite(result) || result <= 0 || (integer && !Number.isInteger(result))) {
    throw invalidOption(`${name} must be a ${integer ? 'whole ' : ''}number > 0, got ${String(value)}.`);
  }
  return result;
}

/** The keys naming one call: its id, and the SIP Call-ID shared by a Realtime and a Live webhook of one INVITE. */
function callKeys(call: IncomingSipCall): string[] {
  const keys = [call.api === 'realtime' ? `realtime:${call.callId}` : `live:${call.sessionId}`];
  const sipCallId = sipHeader(call, 'Call-ID') ?? sipHeader(call, 'i');
  if (sipCallId) keys.push(`sip:${sipCallId}`);
  return keys;
}

/**
 * Receives OpenAI's SIP webhooks: checks the Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) and the timestamp's age, drops a `webhook-id` seen before, and runs `onCall` exactly once per
 * call for `realtime.call.incoming`, `live.transport.incoming` and the deprecated `live.call.incoming` — also when one
 * INVITE produces both a Realtime and a GPT-Live webhook (recognised by its SIP `Call-ID`).
 */
export class OpenAISipWebhookHandler {
  static {
    brand(OpenAISipWebhookHandler, 'openai.OpenAISipWebhookHandler');
  }

  readonly #signature: StandardWebhookSignature;
  readonly #onCall: OpenAISipWebhookHandlerOptions['onCall'];
  readonly #toleranceMs: number;
  readonly #now: () => number;
  readonly #webhooks: BoundedMemory;
  readonly #calls: BoundedMemory;

  constructor(options: OpenAISipWebhookHandlerOptions) {
    OPTIONS.check(options ?? {});
    if (typeof options?.secret !== 'string' || options.secret.length === 0) {
      throw invalidOption(
        'OpenAISipWebhookHandler needs secret: the webhook signing secret ("whsec_…", e.g. process.env.OPENAI_WEBHOOK_SECRET).',
      );
    }
    if (typeof options.onCall !== 'function') {
      throw invalidOption(
        'OpenAISipWebhookHandler needs onCall: a function that answers each incoming call.',
      );
    }
    try {
      this.#signature = new StandardWebhookSignature(options.secret);
    } catch {
      throw invalidOption('secret is not a webhook signing secret: expected "whsec_" followed by base64.');
    }
    this.#onCall = options.onCall;
    this.#toleranceMs = positive(options.toleranceMs, 300_000, 'toleranceMs');
    const rememberMs = positive(options.rememberMs, 3_600_000, 'rememberMs');
    const max = positive(options.maxRemembered, 100_000, 'maxRemembered', true);
    if (options.now !== undefined && typeof options.now !== 'function') {
      throw invalidOption('now must be a function returning the time in ms since the epoch (like Date.now).');
    }
    this.#now = options.now ?? Date.now;
    this.#webhooks = new BoundedMemory(rememberMs, max);
    this.#calls = new BoundedMemory(rememberMs, max);
  }

  /**
   * Verifies and dispatches one webhook. Throws {@link OpenAISipWebhookError} (answer with its `status`) for a bad
   * signature, a stale timestamp or a malformed body; rethrows what `onCall` throws (the call is not run again).
   */
  async handle(request: OpenAISipWebhookRequest): Promise<OpenAISipWebhookOutcome> {
    const id = header(request.headers, 'webhook-id');
    const timestamp = header(request.headers, 'webhook-timestamp');
    const signature = header(request.headers, 'webhook-signature');
    if (!id || !timestamp || !signature) {
      throw new OpenAISipWebhookError(
        'sip_webhook_invalid_signature',
        'The request lacks a webhook-id, webhook-timestamp or webhook-signature header: refused.',
      );
    }
    const seconds = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
    if (Number.isNaN(seconds)) {
      throw new OpenAISipWebhookError(
        'sip_webhook_malformed',
        'The webhook-timestamp header is not a Unix time in seconds: refused.',
      );
    }
    const body = typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body);
    if (!this.#signature.matches(id, seconds, body, signature)) {
      throw new OpenAISipWebhookError(
        'sip_webhook_invalid_signature',
        'The webhook-signature does not match this id, timestamp and body for the configured secret: refused. ' +
          'Check the secret and pass the raw, unparsed body.',
      );
    }
    const now = this.#now();
    if (Math.abs(now - seconds * 1000) > this.#toleranceMs) {
      throw new OpenAISipWebhookError(
        'sip_webhook_stale',
        `The webhook-timestamp is more than ${this.#toleranceMs} ms from this server's clock: refused as a possible replay. Check the server's clock.`,
      );
    }
    const payload = parseWebhookPayload(body, id);
    if (!this.#webhooks.claim(id, now)) return { outcome: 'duplicate', of: 'webhook', webhookId: id };
    if (payload.kind === 'other') return { outcome: 'ignored', type: payload.type, webhookId: id };
    const keys = callKeys(payload.call);
    if (keys.some((key) => this.#calls.has(key, now))) {
      return { outcome: 'duplicate', of: 'call', webhookId: id };
    }
    for (const key of keys) this.#calls.claim(key, now);
    await this.#onCall(payload.call);
    return { outcome: 'handled', call: payload.call };
  }

  /** {@link handle} for a Fetch `Request` (Hono, Next.js, Bun, Deno): 200, or the error's status with its code. */
  async fetch(request: Request): Promise<Response> {
    try {
      await this.handle({ headers: request.headers, body: await request.text() });
      return new Response(null, { status: 200 });
    } catch (error) {
      if (!(error instanceof OpenAISipWebhookError)) throw error;
      return Response.json({ error: { code: error.code, message: error.message } }, { status: error.status });
    }
  }
}
