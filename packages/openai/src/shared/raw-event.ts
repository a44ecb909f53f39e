import { redactSecrets } from './redact.js';

/**
 * A server frame's text as a `raw_event` carries it: the parsed JSON, else the text itself, scrubbed of `secrets`
 * first (a service's messages may echo a key back).
 */
export function rawEventOf(text: string, secrets: readonly string[]): unknown {
  const scrubbed = redactSecrets(text, secrets);
  try {
    return JSON.parse(scrubbed);
  } catch {
    return scrubbed;
  }
}
