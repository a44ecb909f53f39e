import type { z } from 'zod';
import type { AnyAgent } from '../agent.js';
import { brand } from '../brand.js';
import type { InputGuardrailResult, OutputGuardrailResult, ToolGuardrailResult } from '../guardrails.js';
import type { ConversationItem } from '../items.js';
import type { ModelResponse } from '../model.js';
import type { Usage } from '../usage.js';
import { inputToItems } from './loop-env.js';
import { type RunItem, runItemsToConversation, type ToolApprovalItem } from './run-items.js';
import { type RunState, runStateData } from './run-state.js';

/**
 * The type of `finalOutput`: the starting agent's `outputType`, parsed, or text. When a handoff target
 * declares a different `outputType`, the value is that agent's output (see `lastAgent`).
 */
export type RunFinalOutput<TOutput> = [TOutput] extends [z.ZodType] ? z.infer<TOutput> : string;

interface ResultView<TContext> {
  finalOutput: unknown;
  newItems: RunItem<TContext>[];
  lastAgent: AnyAgent<TContext>;
  interruptions: ToolApprovalItem<TContext>[];
  usage: Usage;
  rawResponses: ModelResponse[];
  inputGuardrailResults: InputGuardrailResult[];
  outputGuardrailResults: OutputGuardrailResult[];
  toolInputGuardrailResults: ToolGuardrailResult[];
  toolOutputGuardrailResults: ToolGuardrailResult[];
}

function viewOf<TContext>(state: RunState<TContext>): ResultView<TContext> {
  const data = runStateData(state);
  return {
    finalOutput: data.hasFinalOutput ? data.finalOutput : undefined,
    newItems: [...data.generatedItems],
    lastAgent: data.currentAgent,
    interruptions: state.getInterruptions(),
    usage: { ...data.runContext.usage },
    rawResponses: [...data.modelResponses],
    inputGuardrailResults: [...data.inputGuardrailResults],
    outputGuardrailResults: [...data.outputGuardrailResults],
    toolInputGuardrailResults: [...data.toolInputGuardrailResults],
    toolOutputGuardrailResults: [...data.toolOutputGuardrailResults],
  };
}

/** What both kinds of result show. Values are fixed once the run settles (resuming makes a new result). */
export abstract class RunResultBase<TContext, TOutput extends z.ZodType | undefined> {
  static {
    brand(RunResultBase, 'core.RunResultBase');
  }

  readonly #state: RunState<TContext>;
  #snapshot: ResultView<TContext> | undefined;

  protected constructor(state: RunState<TContext>, settled: boolean) {
    this.#state = state;
    if (settled) this.#snapshot = viewOf(state);
  }

  /** Fixes the values shown from now on. */
  protected settle(): void {
    this.#snapshot ??= viewOf(this.#state);
  }

  #view(): ResultView<TContext> {
    return this.#snapshot ?? viewOf(this.#state);
  }

  /** The run's state: resume it with `run(agent, result.state)` or save it with `toString()`. */
  get state(): RunState<TContext> {
    return this.#state;
  }

  /** The input the run started with. */
  get input(): string | ConversationItem[] {
    return runStateData(this.#state).originalInput;
  }

  /** The final output, or `undefined` when the run paused or stopped without one. */
  get finalOutput(): RunFinalOutput<TOutput> | undefined {
    return this.#view().finalOutput as RunFinalOutput<TOutput> | undefined;
  }

  /** Every item the run generated (across pauses), each with its agent. */
  get newItems(): RunItem<TContext>[] {
    return this.#view().newItems;
  }

  /** The input followed by the new items, as conversation items: pass it as the next run's input. */
  get history(): ConversationItem[] {
    return [...inputToItems(this.input), ...runItemsToConversation(this.#view().newItems)];
  }

  /** The agent in control at the end (after handoffs). */
  get lastAgent(): AnyAgent<TContext> {
    return this.#view().lastAgent;
  }

  /** Tool calls waiting for approval; non-empty exactly when the run paused. */
  get interruptions(): ToolApprovalItem<TContext>[] {
    return this.#view().interruptions;
  }

  /** Usage summed over the run's model calls. */
  get usage(): Usage {
    return this.#view().usage;
  }

  /** Every model response of the run, in order. */
  get rawResponses(): ModelResponse[] {
    return this.#view().rawResponses;
  }

  /** Results of the starting agent's input guardrails. */
  get inputGuardrailResults(): InputGuardrailResult[] {
    return this.#view().inputGuardrailResults;
  }

  /** Results of the output guardrails run on the final output. */
  get outputGuardrailResults(): OutputGuardrailResult[] {
    return this.#view().outputGuardrailResults;
  }

  /** Decisions of the tool input guardrails, one per guardrail and call, in the order they ran. */
  get toolInputGuardrailResults(): ToolGuardrailResult[] {
    return this.#view().toolInputGuardrailResults;
  }

  /** Decisions of the tool output guardrails, one per guardrail and call, in the order they ran. */
  get toolOutputGuardrailResults(): ToolGuardrailResult[] {
    return this.#view().toolOutputGuardrailResults;
  }
}

/** The result of a run that was not streamed: everything is settled. */
export class RunResult<
  TContext = unknown,
  TOutput extends z.ZodType | undefined = z.ZodType | undefined,
> extends RunResultBase<TContext, TOutput> {
  static {
    brand(RunResult, 'core.RunResult');
  }

  /** The result view of a state, fixed at the moment of construction. */
  constructor(state: RunState<TContext>) {
    super(state, true);
  }
}
