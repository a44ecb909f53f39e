import { createHmac } from 'node:crypto';

/** A webhook's POST parameters: a parsed form (Express's `req.body`), or `URLSearchParams`. */
export type TwilioWebhookParams =
  | URLSearchParams
  | Readonly<Record<string, string | readonly string[] | undefined>>;

function entries(params: TwilioWebhookParams): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const add = (key: string, value: string) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  if (params instanceof URLSearchParams) {
    for (const [key, value] of params) add(key, value);
  } else {
    for (const [key, value] of Object.entries(params)) {
      if (value === undefined) continue;
      if (typeof value === 'string') add(key, value);
      else for (const item of value) add(key, item);
    }
  }
  return map;
}

/**
 * What Twilio signs: the full URL, then each POST parameter's name and value, names sorted (repeated names: their
 * values sorted).
 */
export function twilioSignedData(url: string, params: TwilioWebhookParams = {}): string {
  const map = entries(params);
  let data = url;
  for (const key of [...map.keys()].sort()) {
    for (const value of [...new Set(map.get(key))].sort()) data += key + value;
  }
  return data;
}

/** The `X-Twilio-Signature` of a request: base64 HMAC-SHA1 of {@link twilioSignedData} keyed with the auth token. */
export function twilioSignature(authToken: string, url: string, params: TwilioWebhookParams = {}): string {
  return createHmac('sha1', authToken).update(twilioSignedData(url, params), 'utf8').digest('base64');
}

/**
 * The URL as Twilio may have signed it: as given, and with the scheme's default port added or removed (Twilio signs
 * the URL as configured, which a proxy may have rewritten).
 */
export function signedUrlVariants(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const defaultPort = parsed.protocol === 'https:' ? '443' : parsed.protocol === 'http:' ? '80' : undefined;
  if (defaultPort === undefined) return [url];
  const authority = parsed.username || parsed.password ? `${parsed.username}:${parsed.password}@` : '';
  const rest = parsed.pathname + parsed.search + parsed.hash;
  const withPort = `${parsed.protocol}//${authority}${parsed.hostname}:${parsed.port || defaultPort}${rest}`;
  const withoutPort = `${parsed.protocol}//${authority}${parsed.hostname}${rest}`;
  return [
    url,
    ...[withPort, withoutPort].filter(
      (variant) => variant !== url && (parsed.port === '' || parsed.port === defaultPort),
    ),
  ];
}
