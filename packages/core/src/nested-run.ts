import type { AnyAgent } from './agent.js';
import type { RunState } from './runner/run-state.js';
import type { RunStreamEvent } from './runner/stream-events.js';
import type { TraceSpan } from './tracing.js';

/**
 * @internal What the caller of an agent tool (the Runner, or a realtime session) lends the agent run inside it:
 * the span it hangs under, the paused run to resume, and what happens when it pauses for approvals.
 */
export interface NestedRunPort {
  /** The tool call's span: the nested run's span is its child. */
  readonly parentSpan: TraceSpan | undefined;
  /** The nested run this call paused earlier (the outer run paused with it), to resume instead of starting. */
  readonly pausedRun: RunState<unknown> | undefined;
  /**
   * The nested run paused for approvals. A realtime session asks the app and resolves once every interruption
   * of `state` is decided; the Runner rejects with {@link NestedRunPaused}, pausing the outer run with it.
   */
  paused(state: RunState<unknown>): Promise<void>;
  /** Set when the caller streams: the nested run is streamed too, and each of its events is passed here. */
  readonly onEvent?: (event: RunStreamEvent<unknown>) => void;
}

/**
 * @internal Thrown through the tool invocation when an agent tool's run paused for approvals and the outer
 * Runner run pauses with it. Never reaches the app.
 */
export class NestedRunPaused extends Error {
  readonly state: RunState<unknown>;

  constructor(state: RunState<unknown>) {
    super('The agent tool paused for approvals.');
    this.state = state;
  }
}

const ports = new WeakMap<object, NestedRunPort>();

/** @internal Lends `port` to the tool execution context `context`. */
export function lendNestedRunPort(context: object, port: NestedRunPort): void {
  ports.set(context, port);
}

/** @internal The port the caller lent to this tool execution context, if any. */
export function nestedRunPort(context: object): NestedRunPort | undefined {
  return ports.get(context);
}

/** @internal The key under which an agent tool (see `agent.asTool()`) holds the agent it runs. */
export const AGENT_OF_TOOL: unique symbol = Symbol('parley.agentTool');

/** @internal The agent an agent tool runs, or `undefined` for any other tool. */
export function toolAgent<TContext>(tool: object): AnyAgent<TContext> | undefined {
  return (tool as { [AGENT_OF_TOOL]?: AnyAgent<TContext> })[AGENT_OF_TOOL];
}
