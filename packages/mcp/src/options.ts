import {
  type Clock,
  type RunContext,
  type ToolApprovalCall,
  type ToolInputGuardrail,
  type ToolOutputGuardrail,
  type ToolTimeoutBehavior,
  UserError,
} from '@parley/core';
import { invalidOption, type OptionKeyList, optionKeys, resolveClockOption } from '@parley/core/internal';

/** Which of a server's tools an agent is offered: `allow` only those, never those in `deny` (server names). */
export interface MCPToolFilter {
  /** Only these tools, by their names on the server. */
  allow?: readonly string[];
  /** Never these tools, by their names on the server. */
  deny?: readonly string[];
}

/** Whether a call of one of the server's tools waits for the app's approval. */
export type MCPNeedsApproval<TContext> =
  | boolean
  /** The tools that need it, by their names on the server. */
  | readonly string[]
  | ((
      context: RunContext<TContext>,
      input: Record<string, unknown>,
      call: ToolApprovalCall & { serverToolName: string },
    ) => boolean | Promise<boolean>);

/** What every MCP server takes, whatever its transport. */
export interface MCPServerOptions<TContext = unknown> {
  /** The server's name in errors, logs and spans. Default: the command, or the URL's host. */
  name?: string;
  /** Which tools agents are offered. Default: all. */
  toolFilter?: MCPToolFilter;
  /** Prefixed to each tool's name as the model sees it (for two servers with tools of the same name). */
  toolNamePrefix?: string;
  /** Which calls wait for approval, as for function tools. Default: none. */
  needsApproval?: MCPNeedsApproval<TContext>;
  /** Tool input guardrails run before every call of the server's tools. */
  inputGuardrails?: ToolInputGuardrail<TContext>[];
  /** Tool output guardrails run on every result of the server's tools. */
  outputGuardrails?: ToolOutputGuardrail<TContext>[];
  /**
   * A call's time limit, in milliseconds. Without it the Runner's or session's tool timeout applies, and the
   * server's answer is awaited at most {@link DEFAULT_MCP_REQUEST_TIMEOUT_MS}.
   */
  timeoutMs?: number;
  /** What a timed-out call does, as for function tools. Default `error_as_result`. */
  timeoutBehavior?: ToolTimeoutBehavior;
  /** How long starting the server and the MCP handshake may take. Default 10 000 ms. */
  connectTimeoutMs?: number;
  /** How long listing its tools may take. Default 10 000 ms. */
  requestTimeoutMs?: number;
  /**
   * Start a crashed server again on its next use (`true`, default: {@link DEFAULT_MCP_RESTART}), with these limits,
   * or fail its calls with `mcp_server_crashed` (`false`).
   */
  restart?: boolean | MCPRestartOptions;
  /** The clock the restart backoff waits on. Default: the system clock. */
  clock?: Clock;
}

/**
 * How a crashed server is started again: each restart in a row waits longer (`initialDelayMs`, doubled each time,
 * at most `maxDelayMs`); after `maxAttempts` restarts in a row without one request answered, its calls fail with
 * `MCPRestartLimitError` until the app connects it again.
 */
export interface MCPRestartOptions {
  /** Restarts in a row before giving up. Default 5. */
  maxAttempts?: number;
  /** The wait before the first restart, in milliseconds. Default 250. */
  initialDelayMs?: number;
  /** The longest wait, in milliseconds. Default 10 000. */
  maxDelayMs?: number;
}

/** The restart limits of `restart: true`. */
export const DEFAULT_MCP_RESTART: Required<MCPRestartOptions> = Object.freeze({
  maxAttempts: 5,
  initialDelayMs: 250,
  maxDelayMs: 10_000,
});

const RESTART_OPTIONS = optionKeys<MCPRestartOptions>('MCPRestartOptions', {
  maxAttempts: true,
  initialDelayMs: true,
  maxDelayMs: true,
});

/** The restart limits `restart` asks for, or `undefined` for none. */
export function restartPolicy(restart: MCPServerOptions['restart']): Required<MCPRestartOptions> | undefined {
  if (restart === false) return undefined;
  if (restart === undefined || restart === true) return DEFAULT_MCP_RESTART;
  return { ...DEFAULT_MCP_RESTART, ...restart };
}

/** The server's answer to a call is awaited at most this long when no `timeoutMs` is set. */
export const DEFAULT_MCP_REQUEST_TIMEOUT_MS = 60_000;
/** Default `connectTimeoutMs` and `requestTimeoutMs`. */
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 10_000;

/** The keys of {@link MCPServerOptions}, for each transport's option check. */
export const SERVER_OPTION_LIST = {
  name: true,
  toolFilter: true,
  toolNamePrefix: true,
  needsApproval: true,
  inputGuardrails: true,
  outputGuardrails: true,
  timeoutMs: true,
  timeoutBehavior: true,
  connectTimeoutMs: true,
  requestTimeoutMs: true,
  restart: true,
  clock: true,
} as const satisfies OptionKeyList<MCPServerOptions>;

/** Rejects values the server options cannot take, before anything starts. */
export function checkServerOptions<TContext>(owner: string, options: MCPServerOptions<TContext>): void {
  for (const key of ['timeoutMs', 'connectTimeoutMs', 'requestTimeoutMs'] as const) {
    const value = options[key];
    if (value !== undefined && !(typeof value === 'number' && value > 0 && Number.isFinite(value))) {
      throw new UserError(`${owner}: ${key} must be a positive number of milliseconds.`, {
        code: 'invalid_option',
      });
    }
  }
  const filter = options.toolFilter;
  if (filter !== undefined) {
    const names = (list: unknown) =>
      list === undefined || (Array.isArray(list) && list.every((name) => typeof name === 'string'));
    if (typeof filter !== 'object' || filter === null || !names(filter.allow) || !names(filter.deny)) {
      throw new UserError(`${owner}: toolFilter must be { allow?: string[], deny?: string[] }.`, {
        code: 'invalid_option',
      });
    }
  }
  const approval = options.needsApproval;
  if (
    approval !== undefined &&
    typeof approval !== 'boolean' &&
    typeof approval !== 'function' &&
    !(Array.isArray(approval) && approval.every((name) => typeof name === 'string'))
  ) {
    throw new UserError(`${owner}: needsApproval must be a boolean, a list of tool names or a function.`, {
      code: 'invalid_option',
    });
  }
  checkRestart(owner, options.restart);
  resolveClockOption(options.clock, (message) => invalidOption(`${owner}: ${message}`));
  if (options.toolNamePrefix !== undefined && !/^[a-zA-Z0-9_-]{0,32}$/.test(options.toolNamePrefix)) {
    throw new UserError(`${owner}: toolNamePrefix may hold up to 32 letters, digits, "_" or "-".`, {
      code: 'invalid_option',
    });
  }
}

function checkRestart(owner: string, restart: unknown): void {
  if (restart === undefined || typeof restart === 'boolean') return;
  if (typeof restart !== 'object' || restart === null) {
    throw new UserError(
      `${owner}: restart must be true, false or { maxAttempts, initialDelayMs, maxDelayMs }.`,
      {
        code: 'invalid_option',
      },
    );
  }
  RESTART_OPTIONS.check(restart, 'restart');
  const { maxAttempts, initialDelayMs, maxDelayMs } = restart as MCPRestartOptions;
  if (maxAttempts !== undefined && !(Number.isInteger(maxAttempts) && maxAttempts >= 1)) {
    throw new UserError(`${owner}: restart.maxAttempts must be a whole number of at least 1.`, {
      code: 'invalid_option',
    });
  }
  for (const [key, value] of [
    ['initialDelayMs', initialDelayMs],
    ['maxDelayMs', maxDelayMs],
  ] as const) {
    if (value !== undefined && !(typeof value === 'number' && value >= 0 && Number.isFinite(value))) {
      throw new UserError(`${owner}: restart.${key} must be a number of milliseconds (0 or more).`, {
        code: 'invalid_option',
      });
    }
  }
}
