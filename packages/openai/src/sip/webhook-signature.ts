import { Webhook } from 'standardwebhooks';

/** Compares without an early exit, so the time taken says nothing about where two signatures differ. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * The Standard Webhooks signing of one secret (`whsec_…`, base64). The library computes the signature; the
 * timestamp is checked by the caller against its own (injectable) clock, which the library's `verify` cannot use.
 * No `node:` import: the package's entry point also runs in browsers.
 */
export class StandardWebhookSignature {
  readonly #webhook: Webhook;

  constructor(secret: string) {
    this.#webhook = new Webhook(secret);
  }

  /** Whether any `v1,` entry of the space-separated `signatureHeader` signs `id.timestamp.body`. */
  matches(id: string, timestampSeconds: number, body: string, signatureHeader: string): boolean {
    const expected = this.#webhook.sign(id, new Date(timestampSeconds * 1000), body);
    return signatureHeader.split(' ').some((entry) => constantTimeEqual(entry, expected));
  }
}
