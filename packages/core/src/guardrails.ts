import type { Agent } from './agent.js';
import type { RunContext } from './context.js';
import type { ConversationItem } from './items.js';
import type { ToolCallInfo } from './tool.js';

/** What a guardrail function returns. */
export interface GuardrailFunctionOutput {
  /** `true` stops the run (text) or the response (realtime). */
  tripwireTriggered: boolean;
  /** Anything the guardrail wants to report; kept in the guardrail result. */
  outputInfo?: unknown;
}

/**
 * Checks the initial input of a run. Runs for the starting agent only, once per run (never after a
 * handoff, never on resume).
 */
export interface InputGuardrail<TContext = unknown> {
  /** Names it in results, errors and events. */
  name: string;
  /**
   * `true` (default): runs alongside the first model call; a tripwire aborts that call.
   * `false`: blocking, finishes before the model is called.
   */
  runInParallel?: boolean;
  /** Judges the input; `signal` aborts when the run is cancelled. */
  execute(args: {
    agent: Agent<TContext>;
    input: string | ConversationItem[];
    context: RunContext<TContext>;
    signal: AbortSignal;
  }): GuardrailFunctionOutput | Promise<GuardrailFunctionOutput>;
}

/** Checks a final output (text), or an assistant transcript as it accumulates (realtime). */
export interface OutputGuardrail<TContext = unknown> {
  /** Names it in results, errors and events. */
  name: string;
  /** Judges `agentOutput` (the final output, or the transcript so far); `signal` aborts when it is no longer needed. */
  execute(args: {
    agent: Agent<TContext>;
    agentOutput: unknown;
    context: RunContext<TContext>;
    signal: AbortSignal;
  }): GuardrailFunctionOutput | Promise<GuardrailFunctionOutput>;
}

/** The recorded outcome of one input guardrail. */
export interface InputGuardrailResult {
  /** The guardrail that ran. */
  guardrail: { name: string };
  /** What it returned. */
  output: GuardrailFunctionOutput;
}

/** The recorded outcome of one output guardrail. */
export interface OutputGuardrailResult {
  /** The guardrail that ran. */
  guardrail: { name: string };
  /** The agent whose output it judged. */
  agentName: string;
  /** The output it judged. */
  agentOutput: unknown;
  /** What it returned. */
  output: GuardrailFunctionOutput;
}

/** What a tool guardrail decides. */
export type ToolGuardrailDecision =
  /** Go on as normal. */
  | { type: 'allow' }
  /** Do not run the tool (input) or replace its output (output); the model sees `message`. */
  | { type: 'reject_content'; message: string }
  /** Stop: the run fails with `ToolGuardrailTripwireTriggered`. */
  | { type: 'throw_exception'; outputInfo?: unknown };

/** The recorded decision of one tool guardrail on one call. */
export interface ToolGuardrailResult {
  /** The guardrail that ran. */
  guardrail: { name: string };
  /** The tool it guarded. */
  toolName: string;
  /** The call it decided on. */
  callId: string;
  /** What it decided. */
  decision: ToolGuardrailDecision;
}

/** Runs before a tool's side effect, with validated arguments. */
export interface ToolInputGuardrail<TContext = unknown> {
  /** Names it in results and errors. */
  name: string;
  /** Decides on the call, given its validated `input`; `signal` aborts when the call is cancelled. */
  execute(args: {
    agent: Agent<TContext>;
    call: ToolCallInfo;
    input: unknown;
    context: RunContext<TContext>;
    signal: AbortSignal;
  }): ToolGuardrailDecision | Promise<ToolGuardrailDecision>;
}

/** Runs after a tool returned, before its output is accepted. */
export interface ToolOutputGuardrail<TContext = unknown> {
  /** Names it in results and errors. */
  name: string;
  /** Decides on the tool's `output`, given the call's validated `input`; `signal` aborts when the call is cancelled. */
  execute(args: {
    agent: Agent<TContext>;
    call: ToolCallInfo;
    input: unknown;
    output: unknown;
    context: RunContext<TContext>;
    signal: AbortSignal;
  }): ToolGuardrailDecision | Promise<ToolGuardrailDecision>;
}
