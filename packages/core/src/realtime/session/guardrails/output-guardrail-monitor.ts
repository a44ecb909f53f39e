import { abortable } from '../../../abortable.js';
import type { Agent } from '../../../agent.js';
import type { RunContext } from '../../../context.js';
import type { OutputGuardrail } from '../../../guardrails.js';
import { TextBuilder } from '../playback/text-builder.js';
import type { TaskSet } from '../task-set.js';

/** A guardrail that tripped on a response. */
export interface GuardrailTrip<TContext> {
  responseId: string;
  agent: Agent<TContext>;
  /** The first guardrail that tripped (in the order they apply). */
  guardrailName: string;
  outputInfo: unknown;
  /** Every guardrail that tripped in this check, in order. */
  tripped: { name: string; outputInfo: unknown }[];
  text: string;
}

/** What the monitor needs from its session. */
export interface GuardrailMonitorHost<TContext> {
  readonly runContext: RunContext<TContext>;
  readonly tasks: TaskSet;
  readonly debounceChars: number;
  /** The guardrails that apply to a response of `agent` (the session's, then the agent's). */
  guardrailsFor(agent: Agent<TContext>): readonly OutputGuardrail<TContext>[];
  tripped(trip: GuardrailTrip<TContext>): void;
  failed(error: unknown): void;
}

interface ResponseText<TContext> {
  agent: Agent<TContext>;
  readonly text: TextBuilder;
  nextCheckAt: number;
  checkedLength: number;
  tripped: boolean;
  /** Runs of one response are chained so they judge growing text in order and trip at most once. */
  chain: Promise<void>;
}

/**
 * Realtime output guardrails: each response's transcript (or text) is judged every `debounceChars`
 * characters and once more when the response ends. The first check with a tripwire reports one trip naming
 * every guardrail that tripped in it; later runs for that response are skipped, so a response trips at most
 * once. A guardrail that applies twice (session and agent) runs once per check.
 */
export class OutputGuardrailMonitor<TContext> {
  readonly #host: GuardrailMonitorHost<TContext>;
  /** Created for the first response a guardrail applies to. */
  #responses: Map<string, ResponseText<TContext>> | undefined;

  constructor(host: GuardrailMonitorHost<TContext>) {
    this.#host = host;
  }

  /** Starts tracking a response of `agent` (not at all when no guardrail applies to it: nothing could run). */
  begin(responseId: string, agent: Agent<TContext>): void {
    if (this.#responses?.has(responseId) || this.#host.guardrailsFor(agent).length === 0) return;
    this.#responses ??= new Map();
    this.#responses.set(responseId, {
      agent,
      text: new TextBuilder(),
      nextCheckAt: this.#host.debounceChars,
      checkedLength: 0,
      tripped: false,
      chain: Promise.resolve(),
    });
  }

  /** Adds transcript or text of a response; runs the guardrails when the next threshold is crossed. */
  delta(responseId: string, delta: string): void {
    if (!this.#responses || this.#responses.size === 0) return;
    const state = this.#responses?.get(responseId);
    if (!state || state.tripped) return;
    state.text.append(delta);
    if (state.text.length < state.nextCheckAt) return;
    const step = this.#host.debounceChars;
    state.nextCheckAt = (Math.floor(state.text.length / step) + 1) * step;
    this.#check(responseId, state);
  }

  /** The response ended: judge its final text (if not already judged) and stop tracking it. */
  end(responseId: string): void {
    const state = this.#responses?.get(responseId);
    if (!state) return;
    this.#responses?.delete(responseId);
    if (!state.tripped && state.text.length > state.checkedLength) this.#check(responseId, state);
  }

  /** Forgets every response (their runs were cancelled with the session's tasks). */
  reset(): void {
    this.#responses?.clear();
  }

  #check(responseId: string, state: ResponseText<TContext>): void {
    // A guardrail attached to both the session and the agent runs once per check.
    const guardrails = [...new Set(this.#host.guardrailsFor(state.agent))];
    if (guardrails.length === 0) return;
    const text = state.text.toString();
    state.checkedLength = text.length;
    const previous = state.chain;
    let finished!: () => void;
    state.chain = new Promise<void>((resolve) => {
      finished = resolve;
    });
    this.#host.tasks.spawn(
      async (signal) => {
        try {
          await previous;
          if (state.tripped || signal.aborted) return;
          // Guardrails get the signal; one that ignores it is not awaited past it (close and reconnects go on).
          const results = await Promise.all(
            guardrails.map(async (guardrail) => ({
              guardrail,
              output: await abortable(
                guardrail.execute({
                  agent: state.agent,
                  agentOutput: text,
                  context: this.#host.runContext,
                  signal,
                }),
                signal,
              ),
            })),
          );
          const hits = results.filter((r) => r.output.tripwireTriggered);
          const hit = hits[0];
          if (!hit || state.tripped || signal.aborted) return;
          state.tripped = true;
          this.#host.tripped({
            responseId,
            agent: state.agent,
            guardrailName: hit.guardrail.name,
            outputInfo: hit.output.outputInfo,
            tripped: hits.map((r) => ({ name: r.guardrail.name, outputInfo: r.output.outputInfo })),
            text,
          });
        } finally {
          finished();
        }
      },
      (error) => this.#host.failed(error),
    );
  }
}
