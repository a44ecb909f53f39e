/**
 * Text shaped like an OpenAI key: secret keys (`sk-…`, `sk-proj-…`, and the masked `sk-…****abcd` the API echoes in
 * 401 messages) and ephemeral Realtime keys (`ek_…`).
 */
const KEY_LIKE = /\b(sk-|ek_)[A-Za-z0-9_\-*.]{3,}/g;

/**
 * Removes API keys from text that may reach an error, an event or a log: every occurrence of each of `secrets` (the
 * keys in use), then anything shaped like an OpenAI key. The one redaction of the package, for the Responses model
 * and the Realtime adapter alike.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join('[redacted]');
  }
  return out.replace(KEY_LIKE, '$1[redacted]');
}

/**
 * `error` itself when no part of it shows a key, else a plain copy with the keys removed, so the `cause` of an error
 * never carries a secret (a custom `fetch` might print its headers).
 */
export function redactCause(error: unknown, secrets: readonly (string | undefined)[]): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? redactSecrets(error, secrets) : error;
  const shown = `${error.message}\n${error.stack ?? ''}\n${String(error.cause ?? '')}`;
  if (redactSecrets(shown, secrets) === shown) return error;
  const copy = new Error(redactSecrets(error.message, secrets));
  copy.name = error.name;
  copy.stack = redactSecrets(error.stack ?? '', secrets);
  return copy;
}
