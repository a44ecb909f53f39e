import type { AnyAgent } from '../agent.js';
import { brand } from '../brand.js';
import type { RunContext } from '../context.js';
import { UserError } from '../errors.js';
import type { InputGuardrailResult, OutputGuardrailResult, ToolGuardrailResult } from '../guardrails.js';
import { optionKeys } from '../option-keys.js';
import type { Usage } from '../usage.js';
import { answeredCallId } from './loop-env.js';
import type { RunItem, ToolApprovalItem } from './run-items.js';
import type { RunStateData, RunStatus } from './run-state-data.js';
import { type RunStateJson, runStateDataFromString, runStateToJson } from './run-state-json.js';

const REJECT_OPTIONS = optionKeys<{ message?: string }>('reject() options', { message: true });

let dataOf: <TContext>(state: RunState<TContext>) => RunStateData<TContext>;
let create: <TContext>(data: RunStateData<TContext>) => RunState<TContext>;

/**
 * A run's state: its agents, turn counter and budget, the items it generated, guardrail results, pending
 * approvals and decisions. Every result has one (`result.state`). Resume it with `run(agent, state)`, and
 * persist it with `toString()` / `RunState.fromString(agent, text)`.
 *
 * The app's `context` object is not serialized: pass it again as `context` when resuming a restored state.
 */
export class RunState<TContext = unknown> {
  static {
    brand(RunState, 'core.RunState');
  }

  readonly #data: RunStateData<TContext>;

  static {
    dataOf = (state) => state.#data;
    create = (data) => new RunState(data);
  }

  private constructor(data: RunStateData<TContext>) {
    this.#data = data;
  }

  /**
   * Restores a state saved with {@link RunState.toString}. `startingAgent` must be the agent the run
   * started with: agents are found by name among it and the agents reachable through its handoffs.
   * Throws a `UserError` for invalid JSON, a missing, unknown or future `$schemaVersion`, or unknown agents.
   */
  static fromString<TContext>(startingAgent: AnyAgent<TContext>, text: string): RunState<TContext> {
    return create(runStateDataFromString(startingAgent, text));
  }

  /** Where the run stands; `in_progress` and `interrupted` states can be resumed. */
  get status(): RunStatus {
    return this.#data.status;
  }

  /** The agent the run started with. */
  get startingAgent(): AnyAgent<TContext> {
    return this.#data.startingAgent;
  }

  /** The agent in control (the last agent, once the run is over). */
  get currentAgent(): AnyAgent<TContext> {
    return this.#data.currentAgent;
  }

  /** Model calls made so far; at most {@link RunState.maxTurns}. */
  get currentTurn(): number {
    return this.#data.currentTurn;
  }

  /** The turn budget (`Infinity` for unlimited). */
  get maxTurns(): number {
    return this.#data.maxTurns;
  }

  /** Usage of all model calls of the run. */
  get usage(): Usage {
    return this.#data.runContext.usage;
  }

  /** The context tools, guardrails and hooks see. */
  get context(): RunContext<TContext> {
    return this.#data.runContext;
  }

  /** Every item the run generated so far, across pauses. */
  get generatedItems(): readonly RunItem<TContext>[] {
    return this.#data.generatedItems;
  }

  /** Results of the starting agent's input guardrails. */
  get inputGuardrailResults(): readonly InputGuardrailResult[] {
    return this.#data.inputGuardrailResults;
  }

  /** Results of the output guardrails that ran on the final output. */
  get outputGuardrailResults(): readonly OutputGuardrailResult[] {
    return this.#data.outputGuardrailResults;
  }

  /** Decisions of the tool input guardrails so far. */
  get toolInputGuardrailResults(): readonly ToolGuardrailResult[] {
    return this.#data.toolInputGuardrailResults;
  }

  /** Decisions of the tool output guardrails so far. */
  get toolOutputGuardrailResults(): readonly ToolGuardrailResult[] {
    return this.#data.toolOutputGuardrailResults;
  }

  /**
   * The tool calls waiting for a decision (empty unless the run is interrupted), including those of agent
   * tools' runs (`agent.asTool()`) paused with this run: decide them here too.
   */
  getInterruptions(): ToolApprovalItem<TContext>[] {
    const data = this.#data;
    if (data.status !== 'interrupted' || !data.pendingTurn) return [];
    const turnItems = data.generatedItems.slice(data.pendingTurn.firstItemIndex);
    const answered = new Set<string>();
    for (const item of turnItems) {
      if (item.type === 'handoff_output_item') continue;
      const answer = answeredCallId(item);
      if (answer !== undefined) answered.add(answer);
    }
    const pendingIds = new Set(
      [...data.pendingTurn.calls, ...(data.pendingTurn.hostedApprovals ?? [])].map((call) => call.callId),
    );
    const own = turnItems.filter(
      (item): item is ToolApprovalItem<TContext> =>
        item.type === 'tool_approval_item' &&
        pendingIds.has(item.rawItem.callId) &&
        !answered.has(item.rawItem.callId),
    );
    const nested = this.#pausedNestedRuns().flatMap((state) => state.getInterruptions());
    return nested.length > 0 ? [...own, ...nested] : own;
  }

  /** The states of the agent-tool runs paused with this run (their calls still wait for an output). */
  #pausedNestedRuns(): RunState<TContext>[] {
    const data = this.#data;
    if (!data.nestedRuns || data.nestedRuns.size === 0 || !data.pendingTurn) return [];
    const pendingIds = new Set(data.pendingTurn.calls.map((call) => call.callId));
    return [...data.nestedRuns]
      .filter(([callId]) => pendingIds.has(callId))
      .map(([, nested]) => create<TContext>(nested.data));
  }

  /** Lets the tool call run when the run resumes. The decision binds to the call id and its arguments. */
  approve(item: ToolApprovalItem<TContext>): void {
    this.#decide(item, true, undefined);
  }

  /**
   * Refuses the tool call: when the run resumes, the model sees `message` (default: a short refusal) as the
   * call's output instead. The decision binds to the call id and its arguments.
   */
  reject(item: ToolApprovalItem<TContext>, options: { message?: string } = {}): void {
    REJECT_OPTIONS.check(options);
    this.#decide(item, false, options.message);
  }

  #decide(item: ToolApprovalItem<TContext>, approved: boolean, message: string | undefined): void {
    if (this.#data.running) {
      throw new UserError('This run is still going; decide on approvals after it paused.', {
        code: 'run_state_busy',
      });
    }
    const pending = this.getInterruptions().find(
      (candidate) =>
        candidate.rawItem.callId === item?.rawItem?.callId &&
        candidate.rawItem.arguments === item.rawItem.arguments,
    );
    const nested = pending && this.#pausedNestedRuns().find((state) => state.#holds(pending));
    if (nested) {
      nested.#decide(pending, approved, message);
      return;
    }
    if (!pending) {
      throw new UserError(
        `Tool call "${item?.rawItem?.callId}" is not waiting for approval in this run. Pass an item from result.interruptions (or state.getInterruptions()).`,
        { code: 'approval_not_pending' },
      );
    }
    this.#data.approvals.set(pending.rawItem.callId, {
      callId: pending.rawItem.callId,
      arguments: pending.rawItem.arguments,
      approved,
      ...(message === undefined ? {} : { message }),
    });
  }

  /** Whether `item` is one of this run's interruptions (directly or in a nested run). */
  #holds(item: ToolApprovalItem<TContext>): boolean {
    return this.getInterruptions().includes(item);
  }

  /** The versioned JSON form (`$schemaVersion`), as `toString()` writes it. */
  toJSON(): RunStateJson {
    return runStateToJson(this.#data);
  }

  /** The state as versioned JSON text, for {@link RunState.fromString}. */
  toString(): string {
    return JSON.stringify(this.toJSON());
  }
}

/** The Runner's access to a state's data. Not exported from the package. */
export function runStateData<TContext>(state: RunState<TContext>): RunStateData<TContext> {
  return dataOf(state);
}

/** Creates a state around data. Not exported from the package. */
export function createRunState<TContext>(data: RunStateData<TContext>): RunState<TContext> {
  return create(data);
}
