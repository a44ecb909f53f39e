import { DEFAULT_RECONNECT } from '../../../constants.js';
import type { UserError } from '../../../errors.js';
import { optionKeys } from '../../../option-keys.js';

/** How a {@link RealtimeSession} reconnects by itself; every field is optional. */
export interface RealtimeReconnectOptions {
  /** Attempts per outage before the session gives up and reports `disconnected`. Default 5. */
  maxAttempts?: number;
  /** The wait before the second attempt (the first one is immediate); it doubles per attempt. Default 500. */
  initialDelayMs?: number;
  /** The longest wait between two attempts. Default 10 000. */
  maxDelayMs?: number;
  /**
   * Randomizes each wait down by up to this fraction (0 to 1), so clients that lost the same server do not
   * come back in step. Default 0.2; 0 makes the waits exact.
   */
  jitter?: number;
  /**
   * Recycle the connection between turns before the provider's session limit (when the provider says when
   * its session expires). Default `true`.
   */
  recycle?: boolean;
  /** How long before the provider's session limit the recycle starts. Default 60 000. */
  recycleBeforeExpiryMs?: number;
}

/** {@link RealtimeReconnectOptions} with defaults applied; `enabled: false` when `reconnect: false`. */
export interface ResolvedReconnectOptions {
  enabled: boolean;
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  jitter: number;
  recycle: boolean;
  recycleBeforeExpiryMs: number;
}

const DEFAULTS: Omit<ResolvedReconnectOptions, 'enabled'> = DEFAULT_RECONNECT;

const RECONNECT_OPTIONS = optionKeys<RealtimeReconnectOptions>('RealtimeSessionOptions', {
  maxAttempts: true,
  initialDelayMs: true,
  maxDelayMs: true,
  jitter: true,
  recycle: true,
  recycleBeforeExpiryMs: true,
});

/**
 * Validates the `reconnect` session option (`true`/absent: defaults, `false`: off, or an options object).
 * `invalid` builds the session's option error.
 */
export function resolveReconnectOptions(
  value: unknown,
  invalid: (message: string) => UserError,
): ResolvedReconnectOptions {
  if (value === undefined || value === true) return { enabled: true, ...DEFAULTS };
  if (value === false) return { enabled: false, ...DEFAULTS };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('reconnect must be true, false or an object such as { maxAttempts: 5 }.');
  }
  RECONNECT_OPTIONS.check(value, 'reconnect');
  const options = value as Record<string, unknown>;
  const number = (key: keyof typeof DEFAULTS, ok: (n: number) => boolean, expected: string): number => {
    const raw = options[key];
    if (raw === undefined) return DEFAULTS[key] as number;
    if (typeof raw !== 'number' || !Number.isFinite(raw) || !ok(raw)) {
      throw invalid(`reconnect.${key} must be ${expected}, got ${String(raw)}.`);
    }
    return raw;
  };
  const maxAttempts = number('maxAttempts', (n) => Number.isInteger(n) && n > 0, 'a positive integer');
  const initialDelayMs = number('initialDelayMs', (n) => n >= 0, 'a number of milliseconds >= 0');
  const maxDelayMs = number('maxDelayMs', (n) => n >= 0, 'a number of milliseconds >= 0');
  if (maxDelayMs < initialDelayMs) {
    throw invalid(
      `reconnect.maxDelayMs (${maxDelayMs}) must not be below initialDelayMs (${initialDelayMs}).`,
    );
  }
  const jitter = number('jitter', (n) => n >= 0 && n <= 1, 'a fraction from 0 to 1');
  const recycleBeforeExpiryMs = number(
    'recycleBeforeExpiryMs',
    (n) => n > 0,
    'a positive number of milliseconds',
  );
  if (options.recycle !== undefined && typeof options.recycle !== 'boolean') {
    throw invalid('reconnect.recycle must be true or false.');
  }
  return {
    enabled: true,
    maxAttempts,
    initialDelayMs,
    maxDelayMs,
    jitter,
    recycle: options.recycle ?? DEFAULTS.recycle,
    recycleBeforeExpiryMs,
  };
}

/**
 * The wait before attempt `attempt` (1-based) of an outage: none before the first, then `initialDelayMs`
 * doubling up to `maxDelayMs`, less a random share of up to `jitter`.
 */
export function reconnectDelayMs(
  options: ResolvedReconnectOptions,
  attempt: number,
  random: () => number = Math.random,
): number {
  if (attempt <= 1) return 0;
  const base = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** (attempt - 2));
  return Math.round(base * (1 - options.jitter * random()));
}
