import { z } from 'zod';
import { abortable } from './abortable.js';
import type { Agent, AnyFunctionTool } from './agent.js';
import { type BackgroundResult, isBackgroundResult } from './background-result.js';
import { type Clock, systemClock } from './clock.js';
import type { RunContext } from './context.js';
import { ParleyError, ToolGuardrailTripwireTriggered, ToolTimeoutError, UserError } from './errors.js';
import type {
  ToolGuardrailDecision,
  ToolGuardrailResult,
  ToolInputGuardrail,
  ToolOutputGuardrail,
} from './guardrails.js';
import { errorText, log } from './logger.js';
import type { JsonSchema, ToolDefinition } from './model.js';
import { lendNestedRunPort, NestedRunPaused, type NestedRunPort } from './nested-run.js';
import { TOOL_OPTIONS } from './text-option-keys.js';

/** The call a tool is answering. */
export interface ToolCallInfo {
  /** The id the model gave the call; its output answers it. */
  callId: string;
  /** The tool's name. */
  name: string;
  /** The raw JSON arguments the model sent. */
  arguments: string;
}

/**
 * What `needsApproval` receives about the call: the call itself, and a `signal` aborted when the answer is no
 * longer needed (the run is cancelled; the session closes or loses its connection). A check that waits (asks a
 * service, a person) should stop when it aborts; the caller stops waiting for it then either way.
 */
export interface ToolApprovalCall extends ToolCallInfo {
  /** Aborted when the answer is no longer needed. */
  signal: AbortSignal;
}

/** What `execute` receives besides its validated input. */
export interface ToolExecuteContext<TContext = unknown> {
  /** The run or session context. */
  runContext: RunContext<TContext>;
  /** The agent whose model produced this call. */
  agent: Agent<TContext>;
  /** The call being answered. */
  call: ToolCallInfo;
  /** Aborted when the run is cancelled, the session closes, or the tool times out. */
  signal: AbortSignal;
}

/** Turns a tool failure into the text the model sees. */
export type ToolErrorFunction<TContext = unknown> = (
  context: RunContext<TContext>,
  error: unknown,
) => string | Promise<string>;

/** What a timed-out tool does: report it to the model (default) or fail the run. */
export type ToolTimeoutBehavior = 'error_as_result' | 'raise_exception';

/** A function tool: zod parameters, an `execute` function, and optional approval and guardrails. */
export interface FunctionTool<TContext = unknown, TParameters extends z.ZodObject = z.ZodObject> {
  /** Discriminates function tools. */
  readonly type: 'function';
  /** See {@link ToolOptions.name}. */
  readonly name: string;
  /** See {@link ToolOptions.description}. */
  readonly description: string;
  /** See {@link ToolOptions.parameters}. */
  readonly parameters: TParameters;
  /** The JSON Schema of `parameters`, as offered to the model. */
  readonly jsonSchema: JsonSchema;
  /** See {@link ToolOptions.timeoutMs}. */
  readonly timeoutMs?: number;
  /** See {@link ToolOptions.timeoutBehavior}; default `error_as_result`. */
  readonly timeoutBehavior: ToolTimeoutBehavior;
  /** See {@link ToolOptions.inputGuardrails}. */
  readonly inputGuardrails: readonly ToolInputGuardrail<TContext>[];
  /** See {@link ToolOptions.outputGuardrails}. */
  readonly outputGuardrails: readonly ToolOutputGuardrail<TContext>[];
  /** Whether this call must be approved before it runs. */
  needsApproval(
    context: RunContext<TContext>,
    input: z.infer<TParameters>,
    call: ToolApprovalCall,
  ): Promise<boolean>;
  /** See {@link ToolOptions.execute}. */
  execute(input: z.infer<TParameters>, context: ToolExecuteContext<TContext>): unknown;
  /** See {@link ToolOptions.errorFunction}; default {@link defaultToolErrorFunction}. */
  errorFunction: ToolErrorFunction<TContext>;
}

/** Options of {@link tool}. */
export interface ToolOptions<TContext, TParameters extends z.ZodObject> {
  /** The name the model calls: 1-64 letters, digits, `_` or `-`. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** A zod object: offered to the model as JSON Schema, and validates the model's arguments. */
  parameters: TParameters;
  /** Does the work with the validated input; its result (text, or anything JSON-serializable) is the output. */
  execute(input: z.infer<TParameters>, context: ToolExecuteContext<TContext>): unknown;
  /**
   * `true`, or a function deciding per call, to pause for approval before running. Default `false`. The
   * function's `call.signal` aborts when its answer is no longer needed.
   */
  needsApproval?:
    | boolean
    | ((
        context: RunContext<TContext>,
        input: z.infer<TParameters>,
        call: ToolApprovalCall,
      ) => boolean | Promise<boolean>);
  /** Abort `execute` after this many milliseconds. */
  timeoutMs?: number;
  /** What a timeout does. Default `error_as_result`. */
  timeoutBehavior?: ToolTimeoutBehavior;
  /** Turns a thrown error (or a timeout) into the output the model sees. */
  errorFunction?: ToolErrorFunction<TContext>;
  /** Run before `execute`, with the validated input. */
  inputGuardrails?: ToolInputGuardrail<TContext>[];
  /** Run after `execute`, on its output. */
  outputGuardrails?: ToolOutputGuardrail<TContext>[];
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const GUARDRAIL_TRIPS: ReadonlySet<string> = new Set([
  'input_guardrail_tripwire',
  'output_guardrail_tripwire',
]);

/**
 * The default text a model sees when a tool throws: a generic failure, never the error's own text (it may
 * carry hosts, credentials or user data). The error itself goes to the app: the `tool_done` hook or event,
 * the `tool_failed` log line (`warn`) and the tool's span. A timeout says so. To forward an error's text,
 * opt in with a `toolErrorFormatter` (Runner) or the tool's `errorFunction`.
 */
export function defaultToolErrorFunction(_context: RunContext<unknown>, error: unknown): string {
  if (error instanceof ToolTimeoutError)
    return `The tool did not finish within ${error.timeoutMs} ms. Please try again.`;
  // A guardrail of a nested run (an agent tool) tripped: Parley's own words, naming only the guardrail.
  if (error instanceof ParleyError && GUARDRAIL_TRIPS.has(error.code))
    return `The tool refused the request: ${error.message}`;
  return 'An error occurred while running the tool. Please try again.';
}

/**
 * Defines a function tool. `parameters` must be a zod object; it is converted to JSON Schema with
 * `z.toJSONSchema` and used to validate the model's arguments before `execute` runs.
 */
export function tool<TContext = unknown, TParameters extends z.ZodObject = z.ZodObject>(
  options: ToolOptions<TContext, TParameters>,
): FunctionTool<TContext, TParameters> {
  if (typeof options !== 'object' || options === null) {
    throw new UserError('tool() needs an options object: { name, description, parameters, execute }.');
  }
  TOOL_OPTIONS.check(options);
  if (!TOOL_NAME.test(options.name)) {
    throw new UserError(
      `Tool name "${options.name}" is invalid: use 1-64 letters, digits, "_" or "-" (providers reject other names).`,
    );
  }
  if (!(options.parameters instanceof z.ZodObject)) {
    throw new UserError(
      `Tool "${options.name}": parameters must be a zod object, e.g. z.object({ city: z.string() }).`,
    );
  }
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) {
    throw new UserError(`Tool "${options.name}": timeoutMs must be a positive number of milliseconds.`);
  }
  const needsApproval = options.needsApproval ?? false;
  const { $schema: _ignored, ...jsonSchema } = z.toJSONSchema(options.parameters, {
    io: 'input',
  }) as JsonSchema;
  return {
    type: 'function',
    name: options.name,
    description: options.description,
    parameters: options.parameters,
    jsonSchema,
    timeoutMs: options.timeoutMs,
    timeoutBehavior: options.timeoutBehavior ?? 'error_as_result',
    inputGuardrails: options.inputGuardrails ?? [],
    outputGuardrails: options.outputGuardrails ?? [],
    needsApproval:
      needsApproval === false
        ? neverNeedsApproval
        : async (context, input, call) =>
            typeof needsApproval === 'function' ? await needsApproval(context, input, call) : needsApproval,
    execute: options.execute,
    errorFunction: options.errorFunction ?? defaultToolErrorFunction,
  };
}

/**
 * @internal The `needsApproval` of every tool defined without one (or with `false`): a caller may skip
 * asking it.
 */
export async function neverNeedsApproval(): Promise<boolean> {
  return false;
}

/**
 * @internal Whether a call waits for the app's approval, for the Runner and the realtime session alike. A
 * tool defined without `needsApproval` is not asked (no promise, no abort listener), nor are invalid arguments
 * (they never reach `execute`: the call answers with an error output). Otherwise the tool's check gets the
 * call's `signal` and is not awaited past it. `parsed`: the arguments, when the caller already parsed them.
 */
export function callNeedsApproval<TContext>(
  tool: AnyFunctionTool<TContext>,
  context: RunContext<TContext>,
  call: ToolCallInfo,
  signal: AbortSignal,
  parsed?: ParsedToolArguments,
): false | Promise<boolean> {
  if (tool.needsApproval === neverNeedsApproval) return false;
  const args = parsed ?? parseToolArguments(tool, call.arguments);
  if (!args.ok) return false;
  return abortable(tool.needsApproval(context, args.input, { ...call, signal }), signal);
}

/** The {@link ToolDefinition} a model is offered for a tool. */
export function toolDefinition<TContext>(tool: FunctionTool<TContext>): ToolDefinition {
  return { type: 'function', name: tool.name, description: tool.description, parameters: tool.jsonSchema };
}

/** Outcome of {@link parseToolArguments}. */
export type ParsedToolArguments = { ok: true; input: unknown } | { ok: false; message: string };

/** Parses and validates a call's raw JSON arguments against the tool's zod parameters. */
export function parseToolArguments<TContext>(
  tool: FunctionTool<TContext>,
  rawArguments: string,
): ParsedToolArguments {
  let json: unknown;
  try {
    json = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
  } catch {
    return {
      ok: false,
      message: `Invalid arguments for tool "${tool.name}": not valid JSON. Send a JSON object.`,
    };
  }
  const parsed = tool.parameters.safeParse(json);
  if (parsed.success) return { ok: true, input: parsed.data };
  const issues = parsed.error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
  return {
    ok: false,
    message: `Invalid arguments for tool "${tool.name}": ${issues}. Call it again with arguments that match its schema.`,
  };
}

/** How one tool invocation ended. The `output` is always what the model should see. */
export type ToolInvocationResult =
  /** `background`: the tool returned a {@link backgroundResult} (`value` is what it wraps). */
  | { status: 'completed'; output: string; value: unknown; background?: true }
  | { status: 'invalid_arguments'; output: string }
  | { status: 'rejected_by_guardrail'; output: string; guardrailName: string }
  | { status: 'failed'; output: string; error: unknown };

/** Options of {@link invokeFunctionTool}. */
export interface InvokeToolOptions<TContext> {
  /** The agent whose model made the call. */
  agent: Agent<TContext>;
  /** The run or session context `execute` and the guardrails receive. */
  runContext: RunContext<TContext>;
  /** The call to answer. */
  call: ToolCallInfo;
  /**
   * Aborting it aborts the tool's `execute` signal and its guardrails' signal; the invocation then rejects with
   * the reason, without waiting for a guardrail that ignores it.
   */
  signal?: AbortSignal;
  /** The timeout for a tool that has no `timeoutMs` of its own. */
  defaultTimeoutMs?: number;
  /** The clock the timeout runs on. Default `systemClock`. */
  clock?: Clock;
  /** The call's arguments already parsed with {@link parseToolArguments}, when the caller has them. */
  parsed?: ParsedToolArguments;
  /** Called with each tool guardrail's decision, before it takes effect. */
  onGuardrailResult?: (stage: 'input' | 'output', result: ToolGuardrailResult) => void;
  /**
   * The text the model sees for a failure (a throw, or a timeout reported as a result) of a tool that has
   * no `errorFunction` of its own; `undefined` keeps the default text.
   */
  formatError?: (error: unknown) => string | undefined | Promise<string | undefined>;
  /** @internal What the caller lends an agent tool's nested run (see `agent.asTool()`). */
  nested?: NestedRunPort;
}

/** Serializes a tool's return value to the text the model sees. */
export function toolOutputToString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

/**
 * Runs one tool call end to end: validates arguments, runs tool input guardrails, `execute` with a
 * timeout, then tool output guardrails. Errors the model should see become an `output`; it rejects only
 * when the caller's `signal` aborts, a guardrail throws its tripwire, or a timeout is set to raise.
 * Approval is the caller's business and must be settled before this is called.
 */
export async function invokeFunctionTool<TContext>(
  tool: FunctionTool<TContext>,
  options: InvokeToolOptions<TContext>,
): Promise<ToolInvocationResult> {
  const { agent, runContext, call } = options;
  const parsed = options.parsed ?? parseToolArguments(tool, call.arguments);
  if (!parsed.ok) return { status: 'invalid_arguments', output: parsed.message };
  const input = parsed.input;

  const signal = options.signal ?? NEVER_ABORTED;
  for (const guardrail of tool.inputGuardrails) {
    const decision = await abortable(
      guardrail.execute({ agent, call, input, context: runContext, signal }),
      signal,
    );
    recordGuardrail(tool, options, 'input', guardrail.name, decision);
    if (decision.type === 'throw_exception') {
      throw new ToolGuardrailTripwireTriggered(guardrail.name, tool.name, decision.outputInfo);
    }
    if (decision.type === 'reject_content') {
      return { status: 'rejected_by_guardrail', output: decision.message, guardrailName: guardrail.name };
    }
  }

  let value: unknown;
  try {
    const timeoutMs = tool.timeoutMs ?? options.defaultTimeoutMs;
    value =
      timeoutMs === undefined
        ? await execute(tool, input, options, signal)
        : await runWithTimeout(tool, input, options, timeoutMs);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof NestedRunPaused) throw error;
    if (error instanceof ToolTimeoutError && tool.timeoutBehavior === 'raise_exception') throw error;
    log.warn(`Tool "${tool.name}" failed; the model gets an error output instead of a result.`, {
      event: 'tool_failed',
      tool: tool.name,
      callId: call.callId,
      agent: agent.name,
      code: error instanceof ParleyError ? error.code : undefined,
      error: errorText(error),
    });
    return { status: 'failed', output: await failureText(tool, runContext, error, options), error };
  }

  const background = isBackgroundResult(value);
  if (background) value = (value as BackgroundResult).value;
  for (const guardrail of tool.outputGuardrails) {
    const decision = await abortable(
      guardrail.execute({ agent, call, input, output: value, context: runContext, signal }),
      signal,
    );
    recordGuardrail(tool, options, 'output', guardrail.name, decision);
    if (decision.type === 'throw_exception') {
      throw new ToolGuardrailTripwireTriggered(guardrail.name, tool.name, decision.outputInfo);
    }
    if (decision.type === 'reject_content') {
      return { status: 'rejected_by_guardrail', output: decision.message, guardrailName: guardrail.name };
    }
  }
  const output = toolOutputToString(value);
  return background
    ? { status: 'completed', output, value, background }
    : { status: 'completed', output, value };
}

function recordGuardrail<TContext>(
  tool: FunctionTool<TContext>,
  options: InvokeToolOptions<TContext>,
  stage: 'input' | 'output',
  name: string,
  decision: ToolGuardrailDecision,
): void {
  options.onGuardrailResult?.(stage, {
    guardrail: { name },
    toolName: tool.name,
    callId: options.call.callId,
    decision,
  });
}

async function failureText<TContext>(
  tool: FunctionTool<TContext>,
  runContext: RunContext<TContext>,
  error: unknown,
  options: InvokeToolOptions<TContext>,
): Promise<string> {
  if (tool.errorFunction === defaultToolErrorFunction && options.formatError) {
    const formatted = await options.formatError(error);
    if (formatted !== undefined) return formatted;
  }
  return await tool.errorFunction(runContext, error);
}

/** The signal of a tool call nobody can cancel. */
const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/**
 * Calls `execute` in a later microtask (never inside its caller's synchronous code), a throw becoming a
 * rejection. It is simply awaited: a cancelled caller must not settle while `execute` still runs its cleanup.
 */
async function execute<TContext>(
  tool: FunctionTool<TContext>,
  input: unknown,
  options: InvokeToolOptions<TContext>,
  signal: AbortSignal,
): Promise<unknown> {
  if (signal.aborted) throw signal.reason;
  await undefined;
  const context: ToolExecuteContext<TContext> = {
    runContext: options.runContext,
    agent: options.agent,
    call: options.call,
    signal,
  };
  if (options.nested) lendNestedRunPort(context, options.nested);
  const returned = tool.execute(input as Record<string, unknown>, context);
  // A plain value settles the call at once; a promise is awaited here (returning it would cost two more turns).
  return isPromiseLike(returned) ? await returned : returned;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Runs `execute` with a timeout: it gets its own signal, aborted by the caller's or by the timer, and the
 * timer's rejection wins the race (a timeout exists for tools that do not return, so it does not wait for
 * them), except after the caller aborted: a cancelled caller waits for `execute` to settle.
 */
function runWithTimeout<TContext>(
  tool: FunctionTool<TContext>,
  input: unknown,
  options: InvokeToolOptions<TContext>,
  timeoutMs: number,
): Promise<unknown> {
  const outer = options.signal;
  if (outer?.aborted) return Promise.reject(outer.reason);
  const clock = options.clock ?? systemClock;
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  return new Promise<unknown>((resolve, reject) => {
    let timedOut: ToolTimeoutError | undefined;
    let timer: unknown = clock.setTimeout(() => {
      timer = undefined;
      timedOut = new ToolTimeoutError(tool.name, timeoutMs);
      controller.abort(timedOut);
      if (outer?.aborted) return;
      outer?.removeEventListener('abort', onOuterAbort);
      reject(timedOut);
    }, timeoutMs);
    const settle = (outcome: () => void) => {
      if (timer !== undefined) clock.clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
      if (timedOut) reject(timedOut);
      else outcome();
    };
    execute(tool, input, options, controller.signal).then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}
