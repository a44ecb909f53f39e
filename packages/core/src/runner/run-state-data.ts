import type { AnyAgent } from '../agent.js';
import type { RunContext } from '../context.js';
import type { InputGuardrailResult, OutputGuardrailResult, ToolGuardrailResult } from '../guardrails.js';
import type { ConversationItem, FunctionCallItem, HostedToolApprovalRequestItem } from '../items.js';
import type { ModelResponse } from '../model.js';
import type { RunItem } from './run-items.js';

/**
 * Where a run stands. `in_progress` (at a turn boundary) and `interrupted` (waiting for approvals) can be
 * resumed with `run(agent, state)`; the others are final.
 */
export type RunStatus = 'in_progress' | 'interrupted' | 'completed' | 'aborted' | 'failed';

/** A decision on a tool call, bound to the call id and the exact arguments it was made for. */
export interface ApprovalDecision {
  /** The call decided on. */
  callId: string;
  /** The exact arguments the decision was made for; other arguments are not covered. */
  arguments: string;
  /** `true` approved, `false` rejected. */
  approved: boolean;
  /** For a rejection: what the model is told instead of the tool output. */
  message?: string;
}

/** The function calls of a turn paused for approvals, resumed without rerunning completed work. */
export interface PendingTurn {
  calls: FunctionCallItem[];
  /** The hosted MCP approval requests of the turn; absent when none. */
  hostedApprovals?: HostedToolApprovalRequestItem[];
  /** Index in `generatedItems` of the turn's first item. */
  firstItemIndex: number;
}

/** The run of an agent tool (`agent.asTool()`) paused for approvals, with the outer run. */
export interface NestedRun<TContext> {
  /** The agent tool the paused call called. */
  toolName: string;
  /** The nested run's state. */
  data: RunStateData<TContext>;
}

/** The history the model sees after a handoff input filter rewrote it. */
export interface ModelInputOverride {
  items: ConversationItem[];
  /** Generated items from this index on follow `items`. */
  fromItem: number;
}

/** Everything a run keeps between turns and across a pause. Internal to the Runner. */
export interface RunStateData<TContext> {
  status: RunStatus;
  startingAgent: AnyAgent<TContext>;
  currentAgent: AnyAgent<TContext>;
  /** Whether `agent_started` was emitted for `currentAgent`. */
  currentAgentStarted: boolean;
  currentTurn: number;
  maxTurns: number;
  originalInput: string | ConversationItem[];
  /** Items loaded from a session before the first turn. */
  sessionHistory: ConversationItem[];
  modelInputOverride: ModelInputOverride | undefined;
  generatedItems: RunItem<TContext>[];
  modelResponses: ModelResponse[];
  runContext: RunContext<TContext>;
  inputGuardrailResults: InputGuardrailResult[];
  outputGuardrailResults: OutputGuardrailResult[];
  toolInputGuardrailResults: ToolGuardrailResult[];
  toolOutputGuardrailResults: ToolGuardrailResult[];
  pendingTurn: PendingTurn | undefined;
  approvals: Map<string, ApprovalDecision>;
  /** Agent-tool runs paused for approvals, by the call id of the outer call; created on first use. */
  nestedRuns?: Map<string, NestedRun<TContext>>;
  hasFinalOutput: boolean;
  finalOutput: unknown;
  /** What a session already holds of this run; `writeId` names the run's writes (see `RunSessionWriter`). */
  sessionSaved: { input: boolean; items: number; writeId?: string };
  /** A run is using this state right now. */
  running: boolean;
}
