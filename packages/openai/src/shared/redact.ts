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

/**
 * Removes keys from every string field of an error the adapter throws or reports — `message`, `stack`, `code`
 * and every other own field (`requestId`, `param`, `type`, `responseId`, …), whatever a hostile or misconfigured
 * endpoint echoed into them — and from its `cause` (see {@link redactCause}). The error is changed in place and
 * returned; anything that is not an `Error` is returned as {@link redactCause} leaves it.
 */
export function redactError<T>(error: T, secrets: readonly (string | undefined)[]): T {
  if (!(error instanceof Error)) return redactCause(error, secrets) as T;
  const fields = error as unknown as Record<PropertyKey, unknown>;
  for (const key of Reflect.ownKeys(error)) {
    const value = fields[key];
    if (key === 'cause') fields[key] = redactCause(value, secrets);
    else if (typeof value === 'string') fields[key] = redactSecrets(value, secrets);
  }
  return error;
}

/** A shallow copy of `record` with keys removed from every string field (an error event, a log record). */
export function redactFields<T extends object>(record: T, secrets: readonly (string | undefined)[]): T {
  const copy = { ...record } as Record<string, unknown>;
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value === 'string') copy[key] = redactSecrets(value, secrets);
  }
  return copy as T;
}
