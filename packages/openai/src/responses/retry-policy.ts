import {
  RETRY_INITIAL_DELAY_MS as INITIAL_DELAY_MS,
  RETRY_MAX_DELAY_MS as MAX_DELAY_MS,
  RETRY_MAX_HEADER_DELAY_MS as MAX_HEADER_DELAY_MS,
} from '../constants.js';

/** Whether an HTTP status is worth another attempt; `x-should-retry` from the server wins when present. */
export function isRetryableStatus(status: number, headers: Headers): boolean {
  const hint = headers.get('x-should-retry');
  if (hint === 'true') return true;
  if (hint === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The delay the server asked for in `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
function headerDelayMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Number(ms);
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : date - Date.now();
}

/**
 * How long to wait before retry number `retry` (0 for the first): the server's `retry-after-ms` /
 * `retry-after` when present and within a minute, else exponential backoff from 0.5 s doubling to at
 * most 8 s, minus up to 25% random jitter so clients that failed together do not retry together.
 */
export function retryDelayMs(
  retry: number,
  headers: Headers | undefined,
  random: () => number = Math.random,
) {
  const fromServer = headerDelayMs(headers);
  if (fromServer !== undefined && fromServer >= 0 && fromServer <= MAX_HEADER_DELAY_MS) return fromServer;
  const base = Math.min(INITIAL_DELAY_MS * 2 ** retry, MAX_DELAY_MS);
  return base * (1 - 0.25 * random());
}
