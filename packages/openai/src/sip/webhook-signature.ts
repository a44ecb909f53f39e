import { timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks signing of one secret (`whsec_…`, base64). The library computes the signature; the
 * timestamp is checked by the caller against its own (injectable) clock, which the library's `verify` cannot use.
 */
export class StandardWebhookSignature {
  readonly #webhook: Webhook;

  constructor(secret: string) {
    this.#webhook = new Webhook(secret);
  }

  /** Whether any `v1,` entry of the space-separated `signatureHeader` signs `id.timestamp.body`. */
  matches(id: string, timestampSeconds: number, body: string, signatureHeader: string): boolean {
    const expected = Buffer.from(this.#webhook.sign(id, new Date(timestampSeconds * 1000), body));
    return signatureHeader.split(' ').some((entry) => {
      const candidate = Buffer.from(entry);
      return candidate.length === expected.length && timingSafeEqual(candidate, expected);
    });
  }
}
