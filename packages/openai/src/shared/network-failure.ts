import { errorText } from '@parley/core/internal';
/**
 * What a failed `fetch` says about the network: its message plus the system code of its cause (undici throws
 * `TypeError: fetch failed` with the `ECONNREFUSED` / `ENOTFOUND` error as `cause`).
 */
export function networkFailureText(error: unknown): string {
  const message = errorText(error);
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

const NETWORK_CODES =
  /\b(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE)\b/;

/**
 * Whether a socket's error says the service was not reached at all (a system network error such as
 * `ECONNREFUSED`), as opposed to an answer that refused the upgrade.
 */
export function isNetworkFailure(error: unknown, message: string | undefined): boolean {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return (typeof code === 'string' && NETWORK_CODES.test(code)) || NETWORK_CODES.test(message ?? '');
}
