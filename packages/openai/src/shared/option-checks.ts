import { invalidOption } from '@parley/core/internal';
import type { OpenAIRealtimeSessionConfig } from '../realtime/options.js';

/** The `url` option of a WebSocket model, parsed: `wss:` (or `ws:` for a local server); `fallback` when left out. */
export function socketURL(value: string | undefined, fallback: string): URL {
  let url: URL;
  try {
    url = new URL(value ?? fallback);
  } catch {
    throw invalidOption(`url is not a valid URL; expected e.g. ${fallback}.`);
  }
  if (url.protocol !== 'wss:' && url.protocol !== 'ws:') {
    throw invalidOption(`url must use wss: (or ws: for a local server), not ${url.protocol}`);
  }
  return url;
}

/**
 * The `headers` option of a WebSocket model: extra upgrade headers, each a string without line breaks. A header the
 * adapter owns (`reserved`, lower case) is refused with `refusal(name)`.
 */
export function upgradeHeaders(
  headers: Record<string, string> | undefined,
  reserved: ReadonlySet<string>,
  refusal: (name: string) => string,
): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (reserved.has(name.toLowerCase())) throw invalidOption(refusal(name));
    if (typeof value !== 'string' || /[\r\n]/.test(value)) {
      throw invalidOption(`header "${name}" must be a string without line breaks.`);
    }
    checked[name] = value;
  }
  return checked;
}

/** The `WebSocket` option: a constructor, or left out. */
export function checkWebSocketConstructor(value: unknown): void {
  if (value !== undefined && typeof value !== 'function') {
    throw invalidOption(
      'WebSocket must be a WebSocket constructor (e.g. globalThis.WebSocket or the ws package).',
    );
  }
}

/** The `sessionConfig` option of the Realtime models: an object of GA session fields, without `type`. */
export function sessionConfigOption(
  value: OpenAIRealtimeSessionConfig | undefined,
): OpenAIRealtimeSessionConfig {
  const config = value ?? {};
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw invalidOption('sessionConfig must be an object of GA session fields.');
  }
  if ('type' in config)
    throw invalidOption('sessionConfig must not set "type"; the adapter always sends "realtime".');
  return config;
}
