import { invalidOption } from '@parley/core/internal';

/** The default API root of the HTTP endpoints. */
export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * The `baseURL` option as a URL ending in `path` (e.g. `/responses`), after checking it is an http(s) URL
 * without credentials; throws a `UserError` (`invalid_option`) otherwise.
 */
export function endpointURL(baseURL: string | undefined, path: string): string {
  const value = baseURL ?? DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidOption(`baseURL "${value}" is not a URL; use e.g. ${DEFAULT_BASE_URL}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalidOption(`baseURL must use http or https, got "${url.protocol}".`);
  }
  if (url.username || url.password) {
    throw invalidOption(
      'baseURL must not carry credentials; pass the key as apiKey (it is sent in a header).',
    );
  }
  url.hash = '';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  return url.toString();
}
