import { brand } from '../brand.js';
import { ParleyError } from '../errors.js';
import type { InputGuardrailResult, OutputGuardrailResult } from '../guardrails.js';
import { errorText } from '../logger.js';
import type { RunState } from './run-state.js';

/**
 * The run needed another model call but had used all `maxTurns`. Its `state` stops at the turn boundary:
 * resume with `run(agent, error.state, { maxTurns: higher })` to go on.
 */
export class MaxTurnsExceededError<TContext = unknown> extends ParleyError {
  static {
    brand(MaxTurnsExceededError, 'core.MaxTurnsExceededError');
  }

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
  static {
    brand(InputGuardrailTripwireTriggered, 'core.InputGuardrailTripwireTriggered');
  }

  /** The result of the guardrail that tripped. */
  readonly result: InputGuardrailResult;
  /** Every input guardrail result of the run, the tripped one included, in guardrail order. */
  readonly results: readonly InputGuardrailResult[];
  /** The run as it stood when the guardrail tripped (for inspection; it cannot be resumed). */
  readonly state: RunState<TContext>;

  constructor(
    result: InputGuardrailResult,
    results: readonly InputGuardrailResult[],
    state: RunState<TContext>,
  ) {
    super(
      'input_guardrail_tripwire',
      `Input guardrail "${result.guardrail.name}" tripped; the run was stopped.`,
    );
    this.result = result;
    this.results = [...results];
    this.state = state;
  }
}

/** An output guardrail tripped on the final output; the run has no final output. */
export class OutputGuardrailTripwireTriggered<TContext = unknown> extends ParleyError {
  static {
    brand(OutputGuardrailTripwireTriggered, 'core.OutputGuardrailTripwireTriggered');
  }

  /** The result of the guardrail that tripped. */
  readonly result: OutputGuardrailResult;
  /** Every output guardrail result of this check, the tripped one included, in guardrail order. */
  readonly results: readonly OutputGuardrailResult[];
  /** The run as it stood when the guardrail tripped (for inspection; it cannot be resumed). */
  readonly state: RunState<TContext>;

  constructor(
    result: OutputGuardrailResult,
    results: readonly OutputGuardrailResult[],
    state: RunState<TContext>,
  ) {
    super(
      'output_guardrail_tripwire',
      `Output guardrail "${result.guardrail.name}" tripped on the final output of agent "${result.agentName}".`,
    );
    this.result = result;
    this.results = [...results];
    this.state = state;
  }
}

/**
 * A guardrail threw instead of returning a result (its own error is the `cause`). Unlike a model error, this
 * is a fault of the guardrail.
 */
export class GuardrailExecutionError extends ParleyError {
  static {
    brand(GuardrailExecutionError, 'core.GuardrailExecutionError');
  }

  /** The guardrail that threw. */
  readonly guardrailName: string;
  /** Which kind of guardrail it is. */
  readonly kind: 'input' | 'output';

  constructor(guardrailName: string, kind: 'input' | 'output', cause: unknown) {
    super(
      'guardrail_execution_error',
      `${kind === 'input' ? 'Input' : 'Output'} guardrail "${guardrailName}" threw: ${errorText(cause)}. Fix the guardrail (a guardrail reports a problem with tripwireTriggered, it does not throw).`,
      { cause },
    );
    this.guardrailName = guardrailName;
    this.kind = kind;
  }
}
