import type { Clock } from '@parley/core';
import { OpenAIRealtimeError } from '@parley/openai';
import { PROBE_TIMEOUT_MS } from './constants.js';

/**
 * Learns the HTTP status of a refused upgrade where the WebSocket did not report it. The `ws` package puts the
 * status in its error; the WHATWG WebSocket of Node 22+, Bun, Deno and browsers reports only "an error". Then the
 * same URL is requested once over HTTP with the same headers, and a 401, 403 or 404 there becomes the error's
 * `status`. Any other outcome (no `fetch`, a network error, another status, the time limit) keeps `error` as it is.
 */
export async function probeUpgradeStatus(
  error: unknown,
  url: URL,
  headers: Record<string, string>,
  clock: Clock,
): Promise<unknown> {
  if (!(error instanceof OpenAIRealtimeError) || error.code !== 'realtime_handshake_failed') return error;
  if (error.status !== undefined) return error;
  const fetch = (globalThis as { fetch?: typeof globalThis.fetch }).fetch;
  if (typeof fetch !== 'function') return error;
  const target = new URL(url.href);
  target.protocol = target.protocol === 'ws:' ? 'http:' : 'https:';
  const controller = new AbortController();
  const timer = clock.setTimeout(() => controller.abort(), PROBE_TIMEOUT_MS);
  try {
    const response = await fetch(target, { headers, signal: controller.signal });
    await response.body?.cancel().catch(() => {});
    const { status } = response;
    if (status !== 401 && status !== 403 && status !== 404) return error;
    return new OpenAIRealtimeError(
      status === 404 ? 'realtime_handshake_failed' : 'realtime_auth_failed',
      `The upgrade was refused with HTTP ${status}.`,
      {
        status,
        cause: error,
        ...(error.closeCode !== undefined && { closeCode: error.closeCode }),
      },
    );
  } catch {
    return error;
  } finally {
    clock.clearTimeout(timer);
  }
}
