import type { AnyAgent } from '../agent.js';
import type { ModelStreamEvent } from '../model.js';
import type { RunItem } from './run-items.js';

/** An event of the model call, passed through as the model streamed it (`text_delta`, `response_done`, …). */
export interface RawModelStreamEvent {
  readonly type: 'raw_model_event';
  /** The model's event. */
  readonly data: ModelStreamEvent;
}

/** Why a {@link RunItemStreamEvent} was sent, one name per kind of run item. */
export type RunItemStreamEventName =
  | 'message_output_created'
  | 'tool_called'
  | 'tool_output'
  | 'handoff_requested'
  | 'handoff_occurred'
  | 'tool_approval_requested'
  /** A `hosted_tool_item`: a hosted tool's call and results, a hosted approval request, or a decision on one. */
  | 'hosted_tool_activity';

/** A run item was created; the same items, in the same order, end up in `result.newItems`. */
export interface RunItemStreamEvent<TContext = unknown> {
  readonly type: 'run_item';
  /** What happened, e.g. `tool_called`. */
  readonly name: RunItemStreamEventName;
  /** The new item (the same object ends up in `newItems`). */
  readonly item: RunItem<TContext>;
}

/** The current agent changed: at the start of a run, and after a handoff. */
export interface AgentUpdatedStreamEvent<TContext = unknown> {
  readonly type: 'agent_updated';
  /** The agent now in control. */
  readonly agent: AnyAgent<TContext>;
}

/**
 * An event of the run of an agent tool (`agent.asTool()`) this run called: the nested run is streamed with the
 * outer one, and each of its events arrives here while the tool call runs (before its `tool_output`).
 */
export interface AgentToolStreamEvent<TContext = unknown> {
  readonly type: 'agent_tool_event';
  /** The agent the nested run runs. */
  readonly agent: AnyAgent<TContext>;
  /** The agent tool's name, as the outer model called it. */
  readonly toolName: string;
  /** The id of the outer call the nested run answers. */
  readonly toolCallId: string;
  /** The nested run's event (itself an `agent_tool_event` for a run nested deeper). */
  readonly event: RunStreamEvent<TContext>;
}

/** What a streamed run yields. */
export type RunStreamEvent<TContext = unknown> =
  | RawModelStreamEvent
  | RunItemStreamEvent<TContext>
  | AgentUpdatedStreamEvent<TContext>
  | AgentToolStreamEvent<TContext>;

const EVENT_NAMES: Record<RunItem['type'], RunItemStreamEventName> = {
  message_output_item: 'message_output_created',
  tool_call_item: 'tool_called',
  tool_call_output_item: 'tool_output',
  handoff_call_item: 'handoff_requested',
  handoff_output_item: 'handoff_occurred',
  tool_approval_item: 'tool_approval_requested',
  hosted_tool_item: 'hosted_tool_activity',
};

/** The stream event announcing a new run item. */
export function runItemEvent<TContext>(item: RunItem<TContext>): RunItemStreamEvent<TContext> {
  return { type: 'run_item', name: EVENT_NAMES[item.type], item };
}
