import { z } from 'zod';
import type { AnyAgent } from './agent.js';
import { UserError } from './errors.js';
import type { ConversationItem } from './items.js';
import { AGENT_OF_TOOL, type NestedRunPort, nestedRunPort } from './nested-run.js';
import { optionKeys } from './option-keys.js';
import { RunResult } from './runner/run-result.js';
import type { RunState } from './runner/run-state.js';
import { runUnderSpan } from './runner/run-tracing.js';
import { Runner, type RunOptions } from './runner/runner.js';
import type { RunStreamEvent } from './runner/stream-events.js';
import { TOOL_OPTION_LIST } from './text-option-keys.js';
import { type FunctionTool, type ToolExecuteContext, type ToolOptions, tool } from './tool.js';

/** The parameters of an agent tool made without `parameters`: one request in plain words. */
export const AGENT_TOOL_PARAMETERS = z.object({
  input: z.string().describe('What to ask the agent, in plain words, with everything it needs to know.'),
});

/** Options of {@link Agent.asTool}: the tool's name and description, and the tool options of `tool()`. */
export interface AgentToolOptions<TContext, TParameters extends z.ZodObject = typeof AGENT_TOOL_PARAMETERS>
  extends Omit<ToolOptions<TContext, TParameters>, 'name' | 'description' | 'parameters' | 'execute'> {
  /** The name the model calls. Default: the agent's name, with characters tools cannot have replaced by `_`. */
  name?: string;
  /** What the agent does, for the calling model. Default: the agent's `handoffDescription`. */
  description?: string;
  /** The arguments the calling model sends. Default `{ input: string }`. */
  parameters?: TParameters;
  /**
   * The nested run's input from the validated arguments. Default: the `input` argument when it is a string,
   * else the arguments as JSON text.
   */
  inputBuilder?: (
    input: z.infer<TParameters>,
    context: ToolExecuteContext<TContext>,
  ) => string | ConversationItem[] | Promise<string | ConversationItem[]>;
  /**
   * What the calling model sees of the nested run (text, or anything JSON-serializable). Default: its final
   * output.
   */
  outputExtractor?: (result: RunResult<TContext, AnyAgent['outputType']>) => unknown;
  /** The Runner of the nested run (its default model, provider, hooks, clock). Default: a Runner with no defaults. */
  runner?: Runner;
  /** The nested run's turn budget. Default: the runner's. */
  maxTurns?: number;
}

/** A tool that runs an agent (see {@link Agent.asTool}). */
export type AgentTool<TContext = unknown, TParameters extends z.ZodObject = z.ZodObject> = FunctionTool<
  TContext,
  TParameters
> & {
  /** The agent each call runs. */
  readonly agent: AnyAgent<TContext>;
};

const { execute: _execute, ...SHARED_TOOL_OPTIONS } = TOOL_OPTION_LIST;
const AGENT_TOOL_OPTIONS = optionKeys<AgentToolOptions<unknown, z.ZodObject>>('AgentToolOptions', {
  ...SHARED_TOOL_OPTIONS,
  inputBuilder: true,
  outputExtractor: true,
  runner: true,
  maxTurns: true,
});

let defaultRunner: Runner | undefined;

/** The Runner of agent tools made without one: created on first use (the module graph has it by then). */
function nestedRunner(): Runner {
  defaultRunner ??= new Runner();
  return defaultRunner;
}

/** A tool name made of the agent's name: 1-64 letters, digits, `_` or `-`. */
function toolNameOf(agentName: string): string {
  return agentName.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}

/** @internal See {@link Agent.asTool}. */
export function agentAsTool<TContext, TParameters extends z.ZodObject>(
  agent: AnyAgent<TContext>,
  options: AgentToolOptions<TContext, TParameters>,
): AgentTool<TContext, TParameters> {
  if (typeof options !== 'object' || options === null) {
    throw new UserError('agent.asTool() needs an options object, e.g. { description: "…" }.', {
      code: 'invalid_option',
    });
  }
  AGENT_TOOL_OPTIONS.check(options);
  const {
    inputBuilder,
    outputExtractor,
    runner: givenRunner,
    maxTurns,
    name,
    description,
    parameters,
    ...toolOptions
  } = options;
  if (givenRunner !== undefined && !(givenRunner instanceof Runner)) {
    throw new UserError(`Agent tool "${agent.name}": runner must be a Runner.`, { code: 'invalid_option' });
  }
  const toolDescription = description ?? agent.handoffDescription;
  if (!toolDescription) {
    throw new UserError(
      `agent.asTool() for agent "${agent.name}" needs a description (or an agent with a handoffDescription): the calling model decides from it when to call.`,
      { code: 'invalid_option' },
    );
  }
  const made = tool<TContext, TParameters>({
    ...toolOptions,
    name: name ?? toolNameOf(agent.name),
    description: toolDescription,
    parameters: (parameters ?? AGENT_TOOL_PARAMETERS) as TParameters,
    execute: async (input, context) => {
      const runner = givenRunner ?? nestedRunner();
      const port = nestedRunPort(context);
      const runOptions = (): RunOptions<TContext> => {
        const value: RunOptions<TContext> = { context: context.runContext.context, signal: context.signal };
        if (maxTurns !== undefined) value.maxTurns = maxTurns;
        runUnderSpan(value, port?.parentSpan);
        return value;
      };
      const runNested = async (
        nestedInput: string | ConversationItem[] | RunState<TContext>,
      ): Promise<RunResult<TContext, AnyAgent['outputType']>> => {
        const onEvent = port?.onEvent;
        if (!onEvent) return await runner.run(agent, nestedInput, runOptions());
        // The same options object: the span the run hangs under is keyed by it.
        const options = Object.assign(runOptions(), { stream: true as const });
        const streamed = await runner.run(agent, nestedInput, options);
        for await (const event of streamed) onEvent(event as RunStreamEvent<unknown>);
        await streamed.completed;
        return new RunResult(streamed.state);
      };
      let result = await runNested(
        (port?.pausedRun as RunState<TContext> | undefined) ??
          (inputBuilder ? await inputBuilder(input, context) : defaultInput(input)),
      );
      while (result.interruptions.length > 0) {
        await pause(agent, port, result.state as RunState<unknown>);
        result = await runNested(result.state);
      }
      return outputExtractor ? await outputExtractor(result) : result.finalOutput;
    },
  });
  return Object.assign(made, { agent, [AGENT_OF_TOOL]: agent });
}

function defaultInput(input: Record<string, unknown>): string {
  return typeof input.input === 'string' ? input.input : JSON.stringify(input);
}

async function pause(
  agent: { name: string },
  port: NestedRunPort | undefined,
  state: RunState<unknown>,
): Promise<void> {
  if (!port) {
    throw new UserError(
      `Agent tool "${agent.name}" needs approval for a tool call, but it was not called by a Runner or a RealtimeSession, which surface approvals. Call it through one of them.`,
      { code: 'approval_unavailable' },
    );
  }
  await port.paused(state);
}
