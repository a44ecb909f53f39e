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
