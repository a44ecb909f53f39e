import type { AnyAgent, AnyFunctionTool } from '../agent.js';
import { brand } from '../brand.js';
import type { RunContext } from '../context.js';
import type { ToolCallInfo, ToolInvocationResult } from '../tool.js';

/** What each run hook event carries. */
export interface RunHookEvents<TContext = unknown> {
  /** An agent takes control: at the start of a run, and after each handoff (before its first model call). */
  agent_started: { agent: AnyAgent<TContext>; context: RunContext<TContext>; turn: number };
  /** An agent produced the run's final output (after output guardrails passed). */
  agent_done: { agent: AnyAgent<TContext>; context: RunContext<TContext>; output: unknown };
  /** Control passes from one agent to another. */
  handoff: {
    fromAgent: AnyAgent<TContext>;
    toAgent: AnyAgent<TContext>;
    call: ToolCallInfo;
    context: RunContext<TContext>;
  };
  /** A function tool is about to run (after approval, before validation and tool guardrails). */
  tool_started: {
    agent: AnyAgent<TContext>;
    tool: AnyFunctionTool<TContext>;
    call: ToolCallInfo;
    context: RunContext<TContext>;
  };
  /** A function tool finished; `result.output` is what the model will see. */
  tool_done: {
    agent: AnyAgent<TContext>;
    tool: AnyFunctionTool<TContext>;
    call: ToolCallInfo;
    context: RunContext<TContext>;
    result: ToolInvocationResult;
  };
}

/** The name of a run hook event. */
export type RunHookEventName = keyof RunHookEvents;

/** A run hook listener. The run awaits it; a listener that throws fails the run. */
export type RunHookListener<TContext, K extends RunHookEventName> = (
  event: RunHookEvents<TContext>[K],
) => void | Promise<void>;

/**
 * Lifecycle hooks of runs: register listeners with `on`, then pass the hooks as `hooks` to
 * `new Runner({ hooks })` (every run of that runner) or to `run(…, { hooks })` (one run).
 *
 * ```ts
 * const hooks = new RunHooks();
 * hooks.on('tool_started', ({ agent, call }) => console.log(`${agent.name} calls ${call.name}`));
 * ```
 */
export class RunHooks<TContext = unknown> {
  static {
    brand(RunHooks, 'core.RunHooks');
  }

  readonly #listeners = new Map<RunHookEventName, RunHookListener<TContext, RunHookEventName>[]>();

  /** Adds a listener; returns a function that removes it. */
  on<K extends RunHookEventName>(event: K, listener: RunHookListener<TContext, K>): () => void {
    const list = this.#listeners.get(event) ?? [];
    list.push(listener as RunHookListener<TContext, RunHookEventName>);
    this.#listeners.set(event, list);
    return () => this.off(event, listener);
  }

  /** Removes a listener added with {@link RunHooks.on}. */
  off<K extends RunHookEventName>(event: K, listener: RunHookListener<TContext, K>): void {
    const list = this.#listeners.get(event);
    if (!list) return;
    const index = list.indexOf(listener as RunHookListener<TContext, RunHookEventName>);
    if (index >= 0) list.splice(index, 1);
  }

  /** Calls the listeners of `event` one after another, awaiting each. The Runner calls this. */
  async emit<K extends RunHookEventName>(event: K, payload: RunHookEvents<TContext>[K]): Promise<void> {
    const list = this.#listeners.get(event);
    if (!list) return;
    for (const listener of [...list]) await listener(payload);
  }
}
