import type { AnyFunctionTool } from './agent.js';
import type { RunContext } from './context.js';
import { UserError } from './errors.js';
import { errorText, log } from './logger.js';

/**
 * A source of tools that are not known when the agent is made: an MCP server's, for one (`@parley/mcp`). An agent
 * lists its sources in `toolSources`; the Runner and the RealtimeSession hold each source while they use it
 * ({@link ToolSource.acquire} / {@link ToolSource.release}) and read its tools before each model call or session
 * configuration. The tools are ordinary function tools: approvals, guardrails, timeouts, tracing and the
 * once-per-call rule apply to them as to any other.
 */
export interface ToolSource<TContext = unknown> {
  /** A name for errors and logs (e.g. the server's). */
  readonly name: string;
  /**
   * A run or session starts using the source: connects it if it is not connected. Bounded: rejects (with the
   * source's typed error) rather than wait forever.
   */
  acquire(signal?: AbortSignal): Promise<void>;
  /**
   * A run or session stops using the source. The last holder's release closes a source that holders started; one
   * the app connected itself stays open until the app closes it.
   */
  release(): Promise<void>;
  /** The tools now: fetched when the source has none cached or was told its list changed. */
  tools(signal?: AbortSignal): Promise<readonly AnyFunctionTool<TContext>[]>;
  /** The tools as last fetched (none before the first {@link ToolSource.tools}). */
  readonly cachedTools: readonly AnyFunctionTool<TContext>[];
  /** Calls `listener` when the source's tool list changed; returns the unsubscribe function. */
  onToolsChanged?(listener: () => void): () => void;
}

/** What loading needs of an agent. */
interface AgentWithSources<TContext> {
  readonly toolSources: readonly ToolSource<TContext>[];
  checkSourceTools(): void;
}

/**
 * The sources one run or session holds: acquired on first use by one of its agents, released together when it
 * ends. Loading an agent's sources also refreshes their tools, so `agent.findTool()` and `agent.toolDefinitions()`
 * see them.
 */
class ToolSourceHolds<TContext> {
  /** Each held source, with the unsubscribe of its change listener. */
  readonly #held = new Map<ToolSource<TContext>, (() => void) | undefined>();
  /** Told when a held source's tool list changed. */
  readonly #onChange: () => void;

  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  /** Acquires the agent's sources this holder does not hold yet, then fetches their tools (cached unless changed). */
  async load(agent: AgentWithSources<TContext>, signal?: AbortSignal): Promise<void> {
    for (const source of agent.toolSources) {
      if (this.#held.has(source)) continue;
      await source.acquire(signal);
      this.#held.set(
        source,
        source.onToolsChanged?.(() => this.#onChange()),
      );
    }
    await Promise.all(agent.toolSources.map((source) => source.tools(signal)));
    agent.checkSourceTools();
  }

  /** Releases every held source (a failed release is logged: the others are released all the same). */
  async releaseAll(): Promise<void> {
    const held = [...this.#held];
    this.#held.clear();
    for (const [, unsubscribe] of held) unsubscribe?.();
    await Promise.all(
      held.map(([source]) =>
        source.release().catch((error: unknown) => {
          log.warn(`Tool source "${source.name}" failed to close.`, {
            event: 'tool_source_close_failed',
            source: source.name,
            error: errorText(error),
          });
        }),
      ),
    );
  }
}

/** The holds of each run and session, by its context (one context per run or session). */
const holds = new WeakMap<RunContext<unknown>, ToolSourceHolds<unknown>>();

/**
 * @internal Makes the agent's tool sources ready for the run or session of `context`: held by it (started if
 * needed) and their tools listed (cached unless they changed). `undefined` (nothing to wait for) for an agent
 * without sources, so the paths of agents without any take no extra turn.
 */
export function loadToolSources<TContext>(
  agent: AgentWithSources<TContext>,
  context: RunContext<TContext>,
  signal?: AbortSignal,
): Promise<void> | undefined {
  if (agent.toolSources.length === 0) return undefined;
  return holdsOf(context).load(agent, signal);
}

function holdsOf<TContext>(context: RunContext<TContext>): ToolSourceHolds<TContext> {
  const key = context as RunContext<unknown>;
  let held = holds.get(key) as ToolSourceHolds<TContext> | undefined;
  if (!held) {
    held = new ToolSourceHolds<TContext>(() => watchers.get(key)?.());
    holds.set(key, held as ToolSourceHolds<unknown>);
  }
  return held;
}

/** What each realtime session does when a source it holds changed its tools, by the session's context. */
const watchers = new WeakMap<RunContext<unknown>, () => void>();

/** @internal Calls `listener` when a tool source the run or session of `context` holds announces a changed list. */
export function watchToolSources(context: RunContext<unknown>, listener: () => void): void {
  watchers.set(context, listener);
}

/**
 * @internal Releases every tool source the run or session of `context` holds (when it ends); `undefined` when it
 * never held one.
 */
export function releaseToolSources(context: RunContext<unknown>): Promise<void> | undefined {
  return holds.get(context)?.releaseAll();
}

/** @internal Checks `toolSources` of an agent's options. */
export function checkToolSources(agentName: string, sources: unknown): void {
  if (sources === undefined) return;
  const valid =
    Array.isArray(sources) &&
    sources.every(
      (source) =>
        typeof source === 'object' &&
        source !== null &&
        typeof (source as ToolSource).tools === 'function' &&
        typeof (source as ToolSource).acquire === 'function' &&
        typeof (source as ToolSource).release === 'function',
    );
  if (!valid) {
    throw new UserError(
      `Agent "${agentName}": toolSources must be an array of tool sources (e.g. MCP servers from @parley/mcp).`,
      { code: 'invalid_option' },
    );
  }
}
