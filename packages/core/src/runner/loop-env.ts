import type { Clock } from '../clock.js';
import type { ConversationItem } from '../items.js';
import { userMessage } from '../items.js';
import type { TraceSpan } from '../tracing.js';
import type { RunHookEventName, RunHookEvents } from './hooks.js';
import type { ResolvedRunSettings } from './run-config.js';
import type { RunItem } from './run-items.js';
import type { RunState } from './run-state.js';
import type { RunStateData } from './run-state-data.js';
import { type RunStreamEvent, runItemEvent } from './stream-events.js';

/** What one run's loop works with. Streaming and non-streaming runs differ only in `stream` and `emit`. */
export interface LoopEnv<TContext> {
  state: RunState<TContext>;
  data: RunStateData<TContext>;
  /**
   * Aborted when the run is aborted or cancelled immediately, and (with the failure as the reason) when a
   * batch of parallel tools fails, which ends the run too.
   */
  signal: AbortSignal;
  clock: Clock;
  settings: ResolvedRunSettings<TContext>;
  stream: boolean;
  /** Delivers a stream event (a no-op when not streaming). */
  emit(event: RunStreamEvent<TContext>): void;
  /** Resolves once the stream's readers have taken every event so far (at once when not streaming). */
  consumerCaughtUp(): Promise<void>;
  /** `cancel('after_turn')` was requested: stop at the next turn boundary. */
  stopAfterTurn(): boolean;
  /** Call ids that already have an output, in the input or among the generated items. */
  answeredCallIds: Set<string>;
  /** The model input built so far (see {@link modelInput}). */
  modelInputCache: ModelInputCache | undefined;
  /** Aborts `signal` for a failed batch of parallel tools (the run then fails, it is not aborted). */
  abortForFailedBatch(reason: unknown): void;
  /** The span of the tool call this run works for (an agent tool's run), or `undefined`. */
  parentSpan: TraceSpan | undefined;
}

/** Records a new run item and announces it on the stream. */
export function addItem<TContext>(env: LoopEnv<TContext>, item: RunItem<TContext>): void {
  env.data.generatedItems.push(item);
  const answer = answeredCallId(item);
  if (answer !== undefined) env.answeredCallIds.add(answer);
  if (env.stream) env.emit(runItemEvent(item));
}

/** The call id `item` answers: a function call's output, a handoff's, or a decision on a hosted approval request. */
export function answeredCallId<TContext>(item: RunItem<TContext>): string | undefined {
  if (item.type === 'tool_call_output_item' || item.type === 'handoff_output_item')
    return item.rawItem.callId;
  if (item.type === 'hosted_tool_item' && item.rawItem.type === 'hosted_tool_approval_response')
    return item.rawItem.callId;
  return undefined;
}

/** Calls the listeners of a hook event on every hooks object of the run, in order. */
export async function emitHook<TContext, K extends RunHookEventName>(
  env: LoopEnv<TContext>,
  event: K,
  payload: RunHookEvents<TContext>[K],
): Promise<void> {
  for (const hooks of env.settings.hooks) await hooks.emit(event, payload);
}

/** A run's input as conversation items. */
export function inputToItems(input: string | readonly ConversationItem[]): ConversationItem[] {
  return typeof input === 'string' ? [userMessage(input)] : [...input];
}

/**
 * What the model sees, kept up to date incrementally: the base (session history and input, or a handoff
 * filter's rewrite) followed by the conversation items of the generated items appended since.
 */
export interface ModelInputCache {
  /** The override the items were built on (`undefined`: session history and input). */
  override: RunStateData<unknown>['modelInputOverride'];
  items: ConversationItem[];
  /** Generated items up to this index are in `items`. */
  through: number;
}

/** What the model sees this turn: session history, the input, and the items generated so far. */
export function modelInput<TContext>(
  data: RunStateData<TContext>,
  cache: ModelInputCache | undefined,
): { input: ConversationItem[]; cache: ModelInputCache } {
  const override = data.modelInputOverride;
  let current = cache;
  if (!current || current.override !== override) {
    current = {
      override,
      items: override ? [...override.items] : [...data.sessionHistory, ...inputToItems(data.originalInput)],
      through: override ? override.fromItem : 0,
    };
  }
  const generated = data.generatedItems;
  for (let index = current.through; index < generated.length; index++) {
    const item = generated[index]!;
    if (item.type !== 'tool_approval_item') current.items.push(item.rawItem);
  }
  current.through = generated.length;
  // The model gets its own array: the cache keeps growing after the call.
  return { input: current.items.slice(), cache: current };
}

/** Call ids that have an output in what the model sees or in the run's items. */
export function collectAnsweredCallIds<TContext>(data: RunStateData<TContext>): Set<string> {
  const answered = new Set<string>();
  const addOutputs = (items: readonly ConversationItem[]) => {
    for (const item of items) {
      if (item.type === 'function_call_output' || item.type === 'hosted_tool_approval_response')
        answered.add(item.callId);
    }
  };
  if (data.modelInputOverride) addOutputs(data.modelInputOverride.items);
  else {
    addOutputs(data.sessionHistory);
    if (typeof data.originalInput !== 'string') addOutputs(data.originalInput);
  }
  for (const item of data.generatedItems) {
    const answer = answeredCallId(item);
    if (answer !== undefined) answered.add(answer);
  }
  return answered;
}
