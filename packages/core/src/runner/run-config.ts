import type { RunContext } from '../context.js';
import type { InputGuardrail, OutputGuardrail } from '../guardrails.js';
import type { Model, ModelProvider, ModelSettings } from '../model.js';
import type { RunHooks } from './hooks.js';

/** Why a tool call did not give the model its tool's output. */
export type ToolErrorKind =
  /** The user rejected the call (`state.reject(item)` without a `message`). */
  | 'approval_rejected'
  /** The tool threw, or timed out with `timeoutBehavior: 'error_as_result'`. */
  | 'execution_failed';

/** What a {@link ToolErrorFormatter} is told. */
export interface ToolErrorFormatterArgs<TContext = unknown> {
  kind: ToolErrorKind;
  /** The tool that was called. */
  toolName: string;
  /** The call being answered. */
  callId: string;
  /** What the tool threw (for `execution_failed`). */
  error?: unknown;
  /** The text the model sees unless the formatter returns another. */
  defaultMessage: string;
  context: RunContext<TContext>;
}

/**
 * The text the model sees for a rejected or failed tool call; return `undefined` to keep the default.
 * A rejection's explicit `message` and a tool's own `errorFunction` still win.
 */
export type ToolErrorFormatter<TContext = unknown> = (
  args: ToolErrorFormatterArgs<TContext>,
) => string | undefined | Promise<string | undefined>;

/**
 * The text the model sees for a failed or rejected call: the formatter's, or `defaultMessage` when there is no
 * formatter or it returns `undefined`. The Runner and the realtime session both word their errors through it.
 */
export async function formatToolError<TContext>(
  formatter: ToolErrorFormatter<TContext> | undefined,
  kind: ToolErrorKind,
  call: { name: string; callId: string },
  defaultMessage: string,
  context: RunContext<TContext>,
  error?: unknown,
): Promise<string> {
  if (!formatter) return defaultMessage;
  const text = await formatter({
    kind,
    toolName: call.name,
    callId: call.callId,
    ...(kind === 'execution_failed' ? { error } : {}),
    defaultMessage,
    context,
  });
  return text ?? defaultMessage;
}

/** What a call to a tool the agent does not have does: go back to the model (default), or fail the run. */
export type UnknownToolBehavior = 'error_as_result' | 'raise_exception';

/** The settings a {@link Runner} and each of its runs share; a run's own value wins. */
export interface RunSettings<TContext = unknown> {
  /**
   * The model for every agent of the run, overriding the agents' own `model`: a `Model`, or a name for
   * `modelProvider`. Without it each agent uses its own model (or the provider's default).
   */
  model?: string | Model;
  /** Resolves model names (and supplies a default model when nothing names one). */
  modelProvider?: ModelProvider;
  /** Model settings laid over every agent's `modelSettings` (fields set here win). */
  modelSettings?: ModelSettings;
  /**
   * Turn budget (one turn = one model call): a non-negative integer, or `null`/`Infinity` for unlimited;
   * default 10. When resuming a state, the state's budget is kept unless the run gives one.
   */
  maxTurns?: number | null;
  /** Input guardrails added after the starting agent's own (same rules, results reported the same way). */
  inputGuardrails?: InputGuardrail<TContext>[];
  /** Output guardrails added after the final agent's own. */
  outputGuardrails?: OutputGuardrail<TContext>[];
  /** The text the model sees for a rejected or failed tool call; see {@link ToolErrorFormatter}. */
  toolErrorFormatter?: ToolErrorFormatter<TContext>;
  /** A call to a tool the agent does not have: `'error_as_result'` (default) or `'raise_exception'`. */
  unknownToolBehavior?: UnknownToolBehavior;
  /**
   * Lifecycle hooks. The Runner's are called for every run (before the run's own); a runner serves agents
   * of any context type, so its listeners see `context.context` as `unknown`.
   */
  hooks?: RunHooks<TContext>;
}

/** A run's settings after merging the Runner's and the run's. */
export interface ResolvedRunSettings<TContext> {
  model: string | Model | undefined;
  modelProvider: ModelProvider | undefined;
  modelSettings: ModelSettings;
  inputGuardrails: readonly InputGuardrail<TContext>[];
  outputGuardrails: readonly OutputGuardrail<TContext>[];
  toolErrorFormatter: ToolErrorFormatter<TContext> | undefined;
  unknownToolBehavior: UnknownToolBehavior;
  hooks: readonly RunHooks<TContext>[];
}

function definedFields<T extends object>(value: T | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

/** Merges the Runner's settings with one run's: the run's value wins; lists and hooks add up. */
export function resolveRunSettings<TContext>(
  runner: RunSettings<unknown>,
  run: RunSettings<TContext>,
): ResolvedRunSettings<TContext> {
  const fromRunner = runner as RunSettings<TContext>;
  return {
    model: run.model ?? fromRunner.model,
    modelProvider: run.modelProvider ?? fromRunner.modelProvider,
    modelSettings: { ...definedFields(fromRunner.modelSettings), ...definedFields(run.modelSettings) },
    inputGuardrails: [...(fromRunner.inputGuardrails ?? []), ...(run.inputGuardrails ?? [])],
    outputGuardrails: [...(fromRunner.outputGuardrails ?? []), ...(run.outputGuardrails ?? [])],
    toolErrorFormatter: run.toolErrorFormatter ?? fromRunner.toolErrorFormatter,
    unknownToolBehavior: run.unknownToolBehavior ?? fromRunner.unknownToolBehavior ?? 'error_as_result',
    hooks: [fromRunner.hooks, run.hooks].filter((hooks): hooks is RunHooks<TContext> => hooks !== undefined),
  };
}
