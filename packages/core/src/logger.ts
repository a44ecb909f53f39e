import { UserError } from './errors.js';
import { optionKeys } from './option-keys.js';

/** How much Parley logs: a level includes the ones after it (`warn` is the default); `silent` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** What a log line says besides its message: names, ids and codes, never keys or conversation content. */
export type LogFields = Record<string, string | number | boolean | undefined>;

/** Where log lines go: `console`, or any logger with the same four methods (pino, winston, …). */
export interface LogSink {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** Options of {@link configureLogging}. */
export interface LoggingOptions {
  /** Default: the `PARLEY_LOG` environment variable, else `warn`. */
  level?: LogLevel;
  /** Default `console`. */
  sink?: LogSink;
  /**
   * How a line is passed: `console` calls `sink.warn('[parley] message', fields)`, `pino` calls
   * `sink.warn({ lib: 'parley', ...fields }, message)` (pino's object-first form). Default `console`.
   */
  style?: 'console' | 'pino';
}

type Level = Exclude<LogLevel, 'silent'>;
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
const LOGGING_OPTIONS = optionKeys<LoggingOptions>('LoggingOptions', {
  level: true,
  sink: true,
  style: true,
});

function isLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

function levelFromEnvironment(): LogLevel {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.PARLEY_LOG?.trim().toLowerCase();
  return isLevel(value) ? value : 'warn';
}

let level: LogLevel | undefined;
let sink: LogSink = console;
let style: 'console' | 'pino' = 'console';

/**
 * Sets where Parley's log lines go and how many there are, for the whole process. Without a level, the
 * `PARLEY_LOG` environment variable decides (`debug`, `info`, `warn`, `error`, `silent`), else `warn`: what went
 * wrong (a tool that threw, an MCP server that crashed) is logged, nothing else.
 * `configureLogging()` restores the defaults.
 *
 * ```ts
 * configureLogging({ level: 'warn' }); // console
 * configureLogging({ level: 'debug', sink: pino(), style: 'pino' });
 * ```
 */
export function configureLogging(options: LoggingOptions = {}): void {
  LOGGING_OPTIONS.check(options);
  if (options.level !== undefined && !isLevel(options.level)) {
    throw new UserError(
      `LoggingOptions.level must be 'debug', 'info', 'warn', 'error' or 'silent', got ${String(options.level)}.`,
      { code: 'invalid_option' },
    );
  }
  const methods = ['debug', 'info', 'warn', 'error'] as const;
  if (options.sink !== undefined && methods.some((m) => typeof options.sink?.[m] !== 'function')) {
    throw new UserError('LoggingOptions.sink must have debug, info, warn and error methods (e.g. console).', {
      code: 'invalid_option',
    });
  }
  if (options.style !== undefined && options.style !== 'console' && options.style !== 'pino') {
    throw new UserError("LoggingOptions.style must be 'console' or 'pino'.", { code: 'invalid_option' });
  }
  level = options.level;
  sink = options.sink ?? console;
  style = options.style ?? 'console';
}

function enabled(at: Level): boolean {
  level ??= levelFromEnvironment();
  return RANK[at] >= RANK[level];
}

function write(at: Level, message: string, fields: LogFields): void {
  if (!enabled(at)) return;
  if (style === 'pino') sink[at]({ lib: 'parley', ...fields }, message);
  else sink[at](`[parley] ${message}`, fields);
}

/** @internal Parley's own log calls; apps configure them with {@link configureLogging}. */
export const log = {
  debug: (message: string, fields: LogFields = {}) => write('debug', message, fields),
  info: (message: string, fields: LogFields = {}) => write('info', message, fields),
  warn: (message: string, fields: LogFields = {}) => write('warn', message, fields),
  error: (message: string, fields: LogFields = {}) => write('error', message, fields),
};

/** The message of a thrown value, for a log field. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
