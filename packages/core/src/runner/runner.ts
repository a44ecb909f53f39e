import type { z } from 'zod';
import { Agent } from '../agent.js';
import { brand } from '../brand.js';
import { type Clock, resolveClockOption } from '../clock.js';
import { DEFAULT_MAX_TURNS } from '../constants.js';
import { createRunContext } from '../context.js';
import { AbortError, UserError } from '../errors.js';
import type { ConversationItem } from '../items.js';
import { RunSessionWriter } from '../memory/run-session-writes.js';
import type { Session } from '../memory/session.js';
import { optionKeys } from '../option-keys.js';
import { checkOptionValues, invalidOption, type OptionRule, optionRules } from '../option-values.js';
import { checkModelSettings } from '../text-option-keys.js';
import { releaseToolSources } from '../tool-source.js';
import { throwIfAborted } from './concurrency.js';
import { MaxTurnsExceededError } from './errors.js';
import { collectAnsweredCallIds, type LoopEnv } from './loop-env.js';
import { type RunSettings, resolveRunSettings } from './run-config.js';
import { runLoop } from './run-loop.js';
import { RunResult } from './run-result.js';
import { createRunState, RunState, runStateData } from './run-state.js';
import type { RunStateData } from './run-state-data.js';
import { runParentSpan } from './run-tracing.js';
import type { RunStreamEvent } from './stream-events.js';
import { type CancelMode, createStreamedRunResult, type StreamedRunResult } from './streamed-run-result.js';

/** The default turn budget of a run. */
export { DEFAULT_MAX_TURNS };

/** Defaults for every run of a {@link Runner}; see {@link RunSettings}. A run's own options win. */
export interface RunnerConfig extends RunSettings<unknown> {
  /** The clock tool timeouts run on. Default `systemClock`; tests pass a `ManualClock`. */
  clock?: Clock;
}

/** Options of one run: the {@link RunSettings} (overriding the Runner's), plus what belongs to one run. */
export interface RunOptions<TContext = unknown> extends RunSettings<TContext> {
  /** Your own object, handed to tools, guardrails, instructions and hooks as `context.context`. */
  context?: TContext;
  /** Aborting it stops the run at once; every task it started is cancelled and awaited. */
  signal?: AbortSignal;
  /** `true` returns a {@link StreamedRunResult} of events instead of waiting for the end. */
  stream?: boolean;
  /**
   * Conversation memory: read before the first turn, written with the input and new items when the run
   * ends or pauses (a streamed run also as each batch of tool calls completes). A run that fails or is
   * cancelled keeps the tool calls that completed (with their outputs) but not its final message.
   */
  session?: Session;
}

const SETTINGS_KEYS = {
  model: true,
  modelProvider: true,
  modelSettings: true,
  maxTurns: true,
  inputGuardrails: true,
  outputGuardrails: true,
  toolErrorFormatter: true,
  unknownToolBehavior: true,
  hooks: true,
} as const;

const RUNNER_CONFIG = optionKeys<RunnerConfig>('RunnerConfig', { ...SETTINGS_KEYS, clock: true });
const RUN_OPTIONS = optionKeys<RunOptions>('RunOptions', {
  ...SETTINGS_KEYS,
  context: true,
  signal: true,
  stream: true,
  session: true,
});

const UNKNOWN_TOOL_BEHAVIORS: readonly unknown[] = ['error_as_result', 'raise_exception'];

/** Rejects unknown keys and values the Runner cannot use, before anything runs. */
function checkSettings(options: Omit<RunSettings<unknown>, 'hooks'>, where: string): void {
  checkModelSettings(options.modelSettings);
  if (
    options.unknownToolBehavior !== undefined &&
    !UNKNOWN_TOOL_BEHAVIORS.includes(options.unknownToolBehavior)
  ) {
    throw new UserError(
      `${where}: unknownToolBehavior must be 'error_as_result' or 'raise_exception', got ${JSON.stringify(options.unknownToolBehavior)}.`,
      { code: 'invalid_option' },
    );
  }
  checkOptionValues(where, options, SETTINGS_VALUES);
}

const SETTINGS_VALUES: Record<string, OptionRule> = {
  model: optionRules.model,
  modelProvider: optionRules.modelProvider,
  inputGuardrails: optionRules.guardrails,
  outputGuardrails: optionRules.guardrails,
  toolErrorFormatter: optionRules.function,
  hooks: optionRules.hooks,
};

const RUN_VALUES: Record<string, OptionRule> = {
  signal: optionRules.signal,
  stream: optionRules.boolean,
  session: optionRules.session,
};

/** What a run starts from: text, conversation items, or a state to resume. */
export type RunInput<TContext = unknown> = string | ConversationItem[] | RunState<TContext>;

/** Options of a streamed run (`stream: true`). */
export type RunStreamOptions<TContext> = RunOptions<TContext> & { stream: true };
/** Options of a run that resolves once it is done (no `stream`, or `stream: false`). */
export type RunWaitOptions<TContext> = RunOptions<TContext> & { stream?: false };

/** A valid `maxTurns` as a number (`null` and `Infinity` mean unlimited), or `undefined` when not given. */
function checkMaxTurns(value: number | null | undefined, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  if (Number.isInteger(value) && value >= 0) return value;
  throw new UserError(
    `${where}: maxTurns must be a non-negative integer, or null (or Infinity) for unlimited, got ${String(value)}.`,
    { code: 'invalid_max_turns' },
  );
}

const ITEM_TYPES = new Set(['message', 'function_call', 'function_call_output']);

function checkInput(input: unknown): asserts input is string | ConversationItem[] {
  if (typeof input === 'string') return;
  if (
    Array.isArray(input) &&
    input.every(
      (item) =>
        typeof item === 'object' && item !== null && ITEM_TYPES.has((item as { type?: string }).type ?? ''),
    )
  ) {
    return;
  }
  throw new UserError(
    'run() input must be a string, an array of conversation items (e.g. userMessage("hi")), or a RunState to resume.',
    { code: 'invalid_input' },
  );
}

/**
 * Runs agents: the turn loop of `run-loop.ts` (docs/architecture.md). A `Runner` holds defaults (model, provider, turn budget, hooks,
 * clock) for its runs; the module-level {@link run} uses a Runner with no defaults.
 *
 * ```ts
 * const runner = new Runner({ model: new MockModel([MockModel.text('Hello!')]) });
 * const result = await runner.run(agent, 'Hi');
 * result.finalOutput; // 'Hello!'
 * ```
 */
export class Runner {
  static {
    brand(Runner, 'core.Runner');
  }

  /** The defaults this runner was created with. */
  readonly config: Readonly<RunnerConfig>;
  readonly #clock: Clock;

  constructor(config: RunnerConfig = {}) {
    RUNNER_CONFIG.check(config);
    checkSettings(config, 'Runner');
    checkMaxTurns(config.maxTurns, 'Runner');
    this.#clock = resolveClockOption(config.clock, (message) => invalidOption(`Runner: ${message}`));
    this.config = { ...config };
  }

  /** Streams a run: resolves at once with a {@link StreamedRunResult}. */
  run<TContext, TOutput extends z.ZodType | undefined>(
    agent: Agent<TContext, TOutput>,
    input: RunInput<TContext>,
    options: RunStreamOptions<TContext>,
  ): Promise<StreamedRunResult<TContext, TOutput>>;
  /** Runs until a final output, an interruption for approvals, or an error. */
  run<TContext, TOutput extends z.ZodType | undefined>(
    agent: Agent<TContext, TOutput>,
    input: RunInput<TContext>,
    options?: RunWaitOptions<TContext>,
  ): Promise<RunResult<TContext, TOutput>>;
  /** Runs, streamed or not, depending on `options.stream`. */
  run<TContext, TOutput extends z.ZodType | undefined>(
    agent: Agent<TContext, TOutput>,
    input: RunInput<TContext>,
    options?: RunOptions<TContext>,
  ): Promise<RunResult<TContext, TOutput> | StreamedRunResult<TContext, TOutput>>;
  async run<TContext, TOutput extends z.ZodType | undefined>(
    agent: Agent<TContext, TOutput>,
    input: RunInput<TContext>,
    options: RunOptions<TContext> = {},
  ): Promise<RunResult<TContext, TOutput> | StreamedRunResult<TContext, TOutput>> {
    const { state, fresh } = this.#prepare(agent, input, options);
    const data = runStateData(state);
    // One controller per run: aborted from outside (the run's signal, cancel('immediate')), or by a failed
    // batch of parallel tools, which ends the run as failed; `aborted` tells the two apart.
    const controller = new AbortController();
    let aborted: { reason: unknown } | undefined;
    const abort = (reason: unknown) => {
      aborted ??= { reason };
      controller.abort(reason);
    };
    const outer = options.signal;
    const onOuterAbort = () => abort(outer?.reason);
    if (outer?.aborted) abort(outer.reason);
    else outer?.addEventListener('abort', onOuterAbort, { once: true });

    let stopAfterTurn = false;
    let cancelledImmediately = false;
    const streamed =
      options.stream === true
        ? createStreamedRunResult<TContext, TOutput>(state, (mode: CancelMode) => {
            if (mode === 'after_turn') {
              stopAfterTurn = true;
              return;
            }
            cancelledImmediately = true;
            abort(new AbortError('The run was cancelled.'));
          })
        : undefined;
    const driver = streamed?.driver;
    const writer = options.session ? new RunSessionWriter(options.session, data) : undefined;
    // The env gets its final fields here: assigning them later makes V8 keep runs' objects past young GCs.
    const env: LoopEnv<TContext> = {
      state,
      data,
      signal: controller.signal,
      clock: this.#clock,
      settings: resolveRunSettings(this.config, options),
      stream: driver !== undefined,
      emit: driver ? (writer ? writeWhenSettled(driver.push, writer) : driver.push) : ignoreEvent,
      consumerCaughtUp: driver ? () => driver.caughtUp(controller.signal) : caughtUpAtOnce,
      stopAfterTurn: () => stopAfterTurn,
      answeredCallIds: collectAnsweredCallIds(data),
      modelInputCache: undefined,
      abortForFailedBatch: (reason) => controller.abort(reason),
      parentSpan: runParentSpan(options),
    };

    // The terminal failure of the run, if any; `undefined` also for a run cancelled with cancel('immediate').
    const failure = (error: unknown): { error: unknown } | undefined => {
      if (aborted) {
        data.status = 'aborted';
        data.hasFinalOutput = false;
        data.finalOutput = undefined;
        if (cancelledImmediately) return undefined;
        return {
          error:
            error instanceof AbortError
              ? error
              : new AbortError('The run was aborted.', { cause: aborted.reason }),
        };
      }
      if (!(error instanceof MaxTurnsExceededError)) data.status = 'failed';
      return { error };
    };
    const execute = async (): Promise<{ error: unknown } | undefined> => {
      try {
        throwIfAborted(controller.signal);
        if (options.session && fresh) {
          data.sessionHistory = await options.session.getItems();
          for (const id of collectAnsweredCallIds(data)) env.answeredCallIds.add(id);
        }
        await runLoop(env);
        throwIfAborted(controller.signal);
        await writer?.write('all');
        return undefined;
      } catch (error) {
        const failed = failure(error);
        await writer?.write('completed_calls').catch(() => {});
        return failed;
      } finally {
        const released = releaseToolSources(data.runContext);
        if (released) await released;
        data.running = false;
        outer?.removeEventListener('abort', onOuterAbort);
      }
    };

    if (!streamed) {
      const failed = await execute();
      if (failed) throw failed.error;
      return new RunResult<TContext, TOutput>(state);
    }
    void execute().then((failed) => streamed.driver.finish(failed));
    return streamed.result;
  }

  #prepare<TContext>(
    agent: Agent<TContext, z.ZodType | undefined>,
    input: RunInput<TContext>,
    options: RunOptions<TContext>,
  ): { state: RunState<TContext>; fresh: boolean } {
    if (!(agent instanceof Agent)) {
      throw new UserError('run() needs an Agent as its first argument.', { code: 'invalid_agent' });
    }
    if (typeof options !== 'object' || options === null) {
      throw new UserError('run() options must be an object, e.g. { maxTurns: 5 }.', {
        code: 'invalid_option',
      });
    }
    RUN_OPTIONS.check(options);
    checkSettings(options as Omit<RunSettings<unknown>, 'hooks'>, 'run()');
    checkOptionValues('run()', options, RUN_VALUES);
    const maxTurns = checkMaxTurns(options.maxTurns, 'run()');
    if (input instanceof RunState) {
      const data = runStateData(input);
      if (data.running) {
        throw new UserError('This RunState is already being run; wait for that run to settle first.', {
          code: 'run_state_busy',
        });
      }
      if (data.status !== 'in_progress' && data.status !== 'interrupted') {
        throw new UserError(
          `This RunState cannot be resumed: the run is ${data.status}. Start a new run (e.g. with result.history as input).`,
          { code: 'run_state_not_resumable' },
        );
      }
      if (data.startingAgent.name !== agent.name) {
        throw new UserError(
          `This RunState belongs to a run that started with agent "${data.startingAgent.name}"; pass that agent to run(), not "${agent.name}".`,
          { code: 'run_state_agent_mismatch' },
        );
      }
      if (maxTurns !== undefined) data.maxTurns = maxTurns;
      if (options.context !== undefined) data.runContext.context = options.context;
      data.running = true;
      return { state: input, fresh: false };
    }
    checkInput(input);
    const data: RunStateData<TContext> = {
      status: 'in_progress',
      startingAgent: agent,
      currentAgent: agent,
      currentAgentStarted: false,
      currentTurn: 0,
      maxTurns: maxTurns ?? checkMaxTurns(this.config.maxTurns, 'Runner') ?? DEFAULT_MAX_TURNS,
      originalInput: typeof input === 'string' ? input : [...input],
      sessionHistory: [],
      modelInputOverride: undefined,
      generatedItems: [],
      modelResponses: [],
      runContext: createRunContext(options.context as TContext),
      inputGuardrailResults: [],
      outputGuardrailResults: [],
      toolInputGuardrailResults: [],
      toolOutputGuardrailResults: [],
      pendingTurn: undefined,
      approvals: new Map(),
      hasFinalOutput: false,
      finalOutput: undefined,
      sessionSaved: { input: false, items: 0 },
      running: true,
    };
    return { state: createRunState(data), fresh: true };
  }
}

const CAUGHT_UP: Promise<void> = Promise.resolve();

function caughtUpAtOnce(): Promise<void> {
  return CAUGHT_UP;
}

function ignoreEvent(): void {}

/** A streamed run writes to its session as tools complete, not only at the end. */
function writeWhenSettled<TContext>(
  push: (event: RunStreamEvent<TContext>) => void,
  writer: RunSessionWriter<TContext>,
): (event: RunStreamEvent<TContext>) => void {
  return (event) => {
    push(event);
    if (event.type === 'run_item' && (event.name === 'tool_output' || event.name === 'handoff_occurred')) {
      writer.queueSettled();
    }
  };
}

const defaultRunner = new Runner();

/** Streams a run of `agent` on a Runner with no defaults. See {@link Runner.run}. */
export function run<TContext, TOutput extends z.ZodType | undefined>(
  agent: Agent<TContext, TOutput>,
  input: RunInput<TContext>,
  options: RunStreamOptions<TContext>,
): Promise<StreamedRunResult<TContext, TOutput>>;
/** Runs `agent` on a Runner with no defaults until a final output, an interruption, or an error. */
export function run<TContext, TOutput extends z.ZodType | undefined>(
  agent: Agent<TContext, TOutput>,
  input: RunInput<TContext>,
  options?: RunWaitOptions<TContext>,
): Promise<RunResult<TContext, TOutput>>;
/** Runs `agent`, streamed or not depending on `options.stream`. */
export function run<TContext, TOutput extends z.ZodType | undefined>(
  agent: Agent<TContext, TOutput>,
  input: RunInput<TContext>,
  options?: RunOptions<TContext>,
): Promise<RunResult<TContext, TOutput> | StreamedRunResult<TContext, TOutput>>;
export function run<TContext, TOutput extends z.ZodType | undefined>(
  agent: Agent<TContext, TOutput>,
  input: RunInput<TContext>,
  options?: RunOptions<TContext>,
): Promise<RunResult<TContext, TOutput> | StreamedRunResult<TContext, TOutput>> {
  return defaultRunner.run(agent, input, options);
}
