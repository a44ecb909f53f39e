import { emptyUsage, type Usage } from './usage.js';

/** What tools, guardrails and instructions see of a run or a realtime session. */
export interface RunContext<TContext = unknown> {
  /** The app's own context object, passed as `context` to `run()` or the session. */
  context: TContext;
  /** Usage so far. */
  usage: Usage;
}

/** Creates a {@link RunContext} around an app context. */
export function createRunContext<TContext>(context: TContext): RunContext<TContext> {
  return { context, usage: emptyUsage() };
}
