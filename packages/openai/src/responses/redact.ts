const KEY_LIKE = /\b(sk|ek)-[A-Za-z0-9_\-*.]{3,}/g;

/**
 * Removes API keys from text that may reach an error or a log: the exact key in use, and anything
 * shaped like an OpenAI key (the API echoes a masked key with its last characters in 401 messages).
 */
export function redactSecrets(text: string, apiKey?: string): string {
  let out = text;
  if (apiKey) out = out.split(apiKey).join('[redacted]');
  return out.replace(KEY_LIKE, '$1-[redacted]');
}

/**
 * `error` itself when no part of it shows the key, else a plain copy with the key removed, so the
 * `cause` of an error never carries a secret (a custom `fetch` might print its headers).
 */
export function redactCause(error: unknown, apiKey: string): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? redactSecrets(error, apiKey) : error;
  const shown = `${error.message}\n${error.stack ?? ''}\n${String(error.cause ?? '')}`;
  if (!shown.includes(apiKey)) return error;
  const copy = new Error(redactSecrets(error.message, apiKey));
  copy.name = error.name;
  copy.stack = redactSecrets(error.stack ?? '', apiKey);
  return copy;
}
