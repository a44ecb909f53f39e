import type { AnyAgent } from './agent.js';
import type { RunContext } from './context.js';
import type { ConversationItem } from './items.js';
import type { ToolDefinition } from './model.js';
import { HANDOFF_OPTIONS } from './text-option-keys.js';

/** What an input filter sees and returns when control passes to another agent. */
export interface HandoffInputData {
  /** The run's input before this run started. */
  inputHistory: ConversationItem[];
  /** Items generated earlier in this run, before the turn that handed off. */
  preHandoffItems: ConversationItem[];
  /** Items generated in the turn that handed off (including the handoff call and its output). */
  newItems: ConversationItem[];
}

/** What `onHandoff` receives besides the context. */
export interface OnHandoffInfo {
  /**
   * Aborted when the handoff no longer matters (the run is cancelled; the session closes or loses its
   * connection). Work that waits should stop then; the caller stops waiting for it either way.
   */
  signal: AbortSignal;
}

/** Called when the model takes a handoff, before the new agent runs. */
export type OnHandoff<TContext> = (
  context: RunContext<TContext>,
  info: OnHandoffInfo,
) => void | Promise<void>;

/** Options of {@link handoff}. */
export interface HandoffOptions<TContext> {
  /** Called when the model takes this handoff, before the new agent runs; `info.signal` aborts when it no longer matters. */
  onHandoff?: OnHandoff<TContext>;
  /** Rewrites the history the new agent sees. */
  inputFilter?: (data: HandoffInputData) => HandoffInputData;
  /** Default `transfer_to_<agent_name>`. */
  toolName?: string;
  /** What the model is told the tool does. Default: hand off to the agent, plus its `handoffDescription`. */
  toolDescription?: string;
}

/** A transfer of control to another agent, offered to the model as a tool. */
export interface Handoff<TContext = unknown> {
  /** Discriminates a handoff from an agent in `handoffs`. */
  readonly type: 'handoff';
  /** The agent that takes over (of any output type). */
  readonly agent: AnyAgent<TContext>;
  /** The tool name the model calls to take the handoff. */
  readonly toolName: string;
  /** The tool description the model sees. */
  readonly toolDescription: string;
  /** See {@link HandoffOptions.onHandoff}. */
  readonly onHandoff?: OnHandoff<TContext>;
  /** See {@link HandoffOptions.inputFilter}. */
  readonly inputFilter?: (data: HandoffInputData) => HandoffInputData;
  /** The tool the model is offered for this handoff (no parameters, `isHandoff: true`). */
  toolDefinition(): ToolDefinition;
}

/** `transfer_to_<name>` with the agent name lower-cased and anything but letters and digits as `_`. */
export function defaultHandoffToolName(agentName: string): string {
  const slug = agentName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `transfer_to_${slug || 'agent'}`.slice(0, 64);
}

/** Describes a handoff to `agent`. Plain agents in `handoffs` get the defaults. */
export function handoff<TContext>(
  agent: AnyAgent<TContext>,
  options: HandoffOptions<TContext> = {},
): Handoff<TContext> {
  HANDOFF_OPTIONS.check(options);
  const toolName = options.toolName ?? defaultHandoffToolName(agent.name);
  const toolDescription =
    options.toolDescription ??
    `Hand off to the ${agent.name} agent to handle the request.${agent.handoffDescription ? ` ${agent.handoffDescription}` : ''}`;
  return {
    type: 'handoff',
    agent,
    toolName,
    toolDescription,
    onHandoff: options.onHandoff,
    inputFilter: options.inputFilter,
    toolDefinition: () => ({
      type: 'function',
      name: toolName,
      description: toolDescription,
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      isHandoff: true,
    }),
  };
}
