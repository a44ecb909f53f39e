import { ParleyError } from '../errors.js';
import type { InputGuardrailResult, OutputGuardrailResult } from '../guardrails.js';
import type { RunState } from './run-state.js';

/**
 * The run needed another model call but had used all `maxTurns`. Its `state` stops at the turn boundary:
 * resume with `run(agent, error.state, { maxTurns: higher })` to go on.
 */
export class MaxTurnsExceededError<TContext = unknown> extends ParleyError {
  /** The budget that ran out. */
  readonly maxTurns: number;
  /** The run as it stood when the budget ran out. */
  readonly state: RunState<TContext>;

  constructor(maxTurns: number, state: RunState<TContext>) {
    super(
      'max_turns_exceeded',
      `The run used all ${maxTurns} turn(s) without a final output. Raise maxTurns (or pass Infinity), or resume with run(agent, error.state, { maxTurns }).`,
    );
    this.maxTurns = maxTurns;
    this.state = state;
  }
}

/** An input guardrail of the starting agent tripped; the model call it overlapped was cancelled. */
export class InputGuardrailTripwireTriggered<TContext = unknown> extends ParleyError {
  /** The result of the guardrail that tripped. */
  readonly result: InputGuardrailResult;
  /** The run as it stood when the guardrail tripped (for inspection; it cannot be resumed). */
  readonly state: RunState<TContext>;

  constructor(result: InputGuardrailResult, state: RunState<TContext>) {
    super(
      'input_guardrail_tripwire',
      `Input guardrail "${result.guardrail.name}" tripped; the run was stopped.`,
    );
    this.result = result;
    this.state = state;
  }
}

/** An output guardrail tripped on the final output; the run has no final output. */
export class OutputGuardrailTripwireTriggered<TContext = unknown> extends ParleyError {
  /** The result of the guardrail that tripped. */
  readonly result: OutputGuardrailResult;
  /** The run as it stood when the guardrail tripped (for inspection; it cannot be resumed). */
  readonly state: RunState<TContext>;

  constructor(result: OutputGuardrailResult, state: RunState<TContext>) {
    super(
      'output_guardrail_tripwire',
      `Output guardrail "${result.guardrail.name}" tripped on the final output of agent "${result.agentName}".`,
    );
    this.result = result;
    this.state = state;
  }
}
