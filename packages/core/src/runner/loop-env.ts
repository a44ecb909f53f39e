import type { Clock } from '../clock.js';
import type { ConversationItem } from '../items.js';
import { userMessage } from '../items.js';
import type { RunHookEventName, RunHookEvents, RunHooks } from './hooks.js';
import type { ModelSources } from './model-resolution.js';
import { type RunItem, runItemsToConversation } from './run-items.js';
import type { RunState } from './run-state.js';
import type { RunStateData } from './run-state-data.js';
import { type RunStreamEvent, runItemEvent } from './stream-events.js';

/** What one run's loop works with. Streaming and non-streaming runs differ only in `stream` and `emit`. */
export interface LoopEnv<TContext> {
  state: RunState<TContext>;
  data: RunStateData<TContext>;
  /** Aborted when the run is aborted or cancelled immediately. */
  signal: AbortSignal;
  clock: Clock;
  hooks: readonly RunHooks<TContext>[];
  stream: boolean;
  /** Delivers a stream event (a no-op when not streaming). */
  emit(event: RunStreamEvent<TContext>): void;
  models: { run: ModelSources; runner: ModelSources };
  /** `cancel('after_turn')` was requested: stop at the next turn boundary. */
  stopAfterTurn(): boolean;
}

/** Records a new run item and announces it on the stream. */
export function addItem<TContext>(env: LoopEnv<TContext>, item: RunItem<TContext>): void {
  env.data.generatedItems.push(item);
  env.emit(runItemEvent(item));
}

/** Calls the listeners of a hook event on every hooks object of the run, in order. */
export async function emitHook<TContext, K extends RunHookEventName>(
  env: LoopEnv<TContext>,
  event: K,
  payload: RunHookEvents<TContext>[K],
): Promise<void> {
  for (const hooks of env.hooks) await hooks.emit(event, payload);
}

/** A run's input as conversation items. */
export function inputToItems(input: string | readonly ConversationItem[]): ConversationItem[] {
  return typeof input === 'string' ? [userMessage(input)] : [...input];
}

/** What the model sees this turn: session history, the input, and the items generated so far. */
export function modelInput<TContext>(data: RunStateData<TContext>): ConversationItem[] {
  const override = data.modelInputOverride;
  const base = override ? override.items : [...data.sessionHistory, ...inputToItems(data.originalInput)];
  const generated = runItemsToConversation(
    override ? data.generatedItems.slice(override.fromItem) : data.generatedItems,
  );
  return [...base, ...generated];
}
