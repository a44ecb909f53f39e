import type { z } from 'zod';
import {
  type AGENT_TOOL_PARAMETERS,
  type AgentTool,
  type AgentToolOptions,
  agentAsTool,
} from './agent-tool.js';
import { brand } from './brand.js';
import type { RunContext } from './context.js';
import { UserError } from './errors.js';
import type { InputGuardrail, OutputGuardrail } from './guardrails.js';
import { type Handoff, handoff } from './handoff.js';
import { type HostedTool, hostedToolName } from './hosted-tool.js';
import type { Model, ModelSettings, ToolDefinition } from './model.js';
import { checkOptionValues, type OptionRule, optionRules } from './option-values.js';
import { AGENT_OPTIONS, checkModelSettings } from './text-option-keys.js';
import { type FunctionTool, type ToolCallInfo, toolDefinition } from './tool.js';
import { checkToolSources, type ToolSource } from './tool-source.js';

/** A tool of any parameter shape, as an agent holds it. */
// biome-ignore lint/suspicious/noExplicitAny: tools of every parameter shape must fit one list
export type AnyFunctionTool<TContext = unknown> = FunctionTool<TContext, any>;

/** An agent of any output type, as handoffs, run items and results hold it. */
// biome-ignore lint/suspicious/noExplicitAny: handoffs, items and results hold agents of every output type
export type AnyAgent<TContext = unknown> = Agent<TContext, any>;

/** Instructions: fixed text, or computed from the context each time the agent runs. */
export type AgentInstructions<TContext> =
  | string
  | ((context: RunContext<TContext>, agent: Agent<TContext>) => string | Promise<string>);

/** The final output type of an agent: parsed `outputType`, or text. */
export type AgentOutput<TOutput extends z.ZodType | undefined> = TOutput extends z.ZodType
  ? z.infer<TOutput>
  : string;

/** The outcome of one function tool call of a turn, as a {@link ToolsToFinalOutputFunction} sees it. */
export interface FunctionToolResult<TContext = unknown> {
  /** The tool that was called. */
  tool: AnyFunctionTool<TContext>;
  /** The call it answered. */
  call: ToolCallInfo;
  /** What the model would see as the call's output. */
  output: string;
}

/** What a {@link ToolsToFinalOutputFunction} decides. */
export type ToolsToFinalOutputResult =
  | { isFinalOutput: false }
  | { isFinalOutput: true; finalOutput: unknown };

/** Decides from a turn's tool results whether they are the run's final output. */
export type ToolsToFinalOutputFunction<TContext = unknown> = (
  context: RunContext<TContext>,
  toolResults: FunctionToolResult<TContext>[],
) => ToolsToFinalOutputResult | Promise<ToolsToFinalOutputResult>;

/**
 * What happens after a turn's function tools ran (when no handoff was taken and nothing awaits approval):
 * - `'run_llm_again'` (default): the model is called again with the outputs;
 * - `'stop_on_first_tool'`: the first tool's output is the final output, without another model call;
 * - `{ stopAtToolNames }`: the same, for the first call (in call order) to one of these tools;
 * - a function: decides from the turn's tool results.
 */
export type ToolUseBehavior<TContext = unknown> =
  | 'run_llm_again'
  | 'stop_on_first_tool'
  | { stopAtToolNames: readonly string[] }
  | ToolsToFinalOutputFunction<TContext>;

function checkToolUseBehavior(agentName: string, value: unknown): void {
  if (value === 'run_llm_again' || value === 'stop_on_first_tool' || typeof value === 'function') return;
  const names = (value as { stopAtToolNames?: unknown } | null)?.stopAtToolNames;
  if (Array.isArray(names) && names.every((name) => typeof name === 'string')) return;
  throw new UserError(
    `Agent "${agentName}": toolUseBehavior must be 'run_llm_again', 'stop_on_first_tool', { stopAtToolNames: [...] } or a function, got ${JSON.stringify(value)}.`,
    { code: 'invalid_tool_use_behavior' },
  );
}

const AGENT_OPTION_VALUES: Record<string, OptionRule> = {
  instructions: {
    takes: 'a string or a function of the run context',
    accepts: (value) => typeof value === 'string' || typeof value === 'function',
  },
  handoffDescription: optionRules.string,
  tools: optionRules.tools,
  hostedTools: {
    takes: 'an array of hosted tools',
    accepts: Array.isArray,
    each: {
      takes: 'a hosted tool made with hostedTool()',
      accepts: (value) => (value as { type?: unknown } | null)?.type === 'hosted',
    },
  },
  handoffs: {
    takes: 'an array of agents and handoff()s',
    accepts: Array.isArray,
    each: {
      takes: 'an Agent or a handoff()',
      accepts: (value) => value instanceof Agent || (value as { type?: unknown } | null)?.type === 'handoff',
    },
  },
  inputGuardrails: optionRules.guardrails,
  outputGuardrails: optionRules.guardrails,
  outputType: optionRules.zodSchema,
  model: optionRules.model,
};

/** Options of {@link Agent}. */
export interface AgentOptions<TContext = unknown, TOutput extends z.ZodType | undefined = undefined> {
  /** The agent's name: non-empty; handoffs to it are offered as `transfer_to_<name>`. */
  name: string;
  /** The system prompt: fixed text, or a function of the run context. */
  instructions?: AgentInstructions<TContext>;
  /** Shown to other agents' models when this agent is offered as a handoff. */
  handoffDescription?: string;
  /** Function tools the model may call (made with `tool()`); names must be unique, handoffs included. */
  tools?: AnyFunctionTool<TContext>[];
  /**
   * Sources of tools known only at run time, e.g. MCP servers (`@parley/mcp`): their tools are offered next to
   * `tools`, read before each model call (Runner) or session configuration (RealtimeSession). The run or session
   * holds each source while it uses it.
   */
  toolSources?: ToolSource<TContext>[];
  /**
   * Tools the provider runs itself (web search, file search, code interpreter, image generation, MCP servers),
   * made with `hostedTool()` or a provider package's helpers. The agent's model must run their kinds
   * (`capabilities.hostedTools`); their calls and results appear in the run as `hosted_tool_call_item`s.
   */
  hostedTools?: HostedTool[];
  /** Agents this one may transfer to, offered to the model as `transfer_to_<name>` tools. */
  handoffs?: (Agent<TContext, z.ZodType | undefined> | Handoff<TContext>)[];
  /** Guardrails on the run's initial input; they apply when this agent starts the run. */
  inputGuardrails?: InputGuardrail<TContext>[];
  /** Guardrails on this agent's final output (and, in a realtime session, on its responses' text). */
  outputGuardrails?: OutputGuardrail<TContext>[];
  /** A zod schema the final output must match; without it the final output is text. */
  outputType?: TOutput;
  /** A model name for the run's provider, or a model instance; overrides the run's default. */
  model?: string | Model;
  /** Model settings (temperature, tool choice, …) for this agent's model calls. */
  modelSettings?: ModelSettings;
  /** What happens after this agent's tools ran; see {@link ToolUseBehavior}. Default `'run_llm_again'`. */
  toolUseBehavior?: ToolUseBehavior<TContext>;
}

/** An agent: instructions, tools, handoffs and guardrails around a model. */
export class Agent<TContext = unknown, TOutput extends z.ZodType | undefined = z.ZodType | undefined> {
  static {
    brand(Agent, 'core.Agent');
  }

  /** See {@link AgentOptions.name}. */
  readonly name: string;
  /** See {@link AgentOptions.instructions}; {@link getInstructions} resolves it. */
  readonly instructions: AgentInstructions<TContext> | undefined;
  /** See {@link AgentOptions.handoffDescription}; `''` when none was given. */
  readonly handoffDescription: string;
  /** See {@link AgentOptions.tools}. */
  readonly tools: readonly AnyFunctionTool<TContext>[];
  /** See {@link AgentOptions.toolSources}. */
  readonly toolSources: readonly ToolSource<TContext>[];
  /** See {@link AgentOptions.hostedTools}. */
  readonly hostedTools: readonly HostedTool[];
  /** See {@link AgentOptions.handoffs}; {@link getHandoffs} normalizes them. */
  readonly handoffs: readonly (Agent<TContext, z.ZodType | undefined> | Handoff<TContext>)[];
  /** See {@link AgentOptions.inputGuardrails}. */
  readonly inputGuardrails: readonly InputGuardrail<TContext>[];
  /** See {@link AgentOptions.outputGuardrails}. */
  readonly outputGuardrails: readonly OutputGuardrail<TContext>[];
  /** See {@link AgentOptions.outputType}. */
  readonly outputType: TOutput | undefined;
  /** See {@link AgentOptions.model}. */
  readonly model: string | Model | undefined;
  /** See {@link AgentOptions.modelSettings}; `{}` when none were given. */
  readonly modelSettings: ModelSettings;
  /** See {@link AgentOptions.toolUseBehavior}. */
  readonly toolUseBehavior: ToolUseBehavior<TContext>;

  constructor(options: AgentOptions<TContext, TOutput>) {
    if (typeof options !== 'object' || options === null) {
      throw new UserError('new Agent() needs an options object, e.g. new Agent({ name: "Assistant" }).');
    }
    AGENT_OPTIONS.check(options);
    checkOptionValues('new Agent()', options, AGENT_OPTION_VALUES);
    checkModelSettings(options.modelSettings);
    if (!options.name || typeof options.name !== 'string') {
      throw new UserError('An agent needs a non-empty name.');
    }
    this.name = options.name;
    this.instructions = options.instructions;
    this.handoffDescription = options.handoffDescription ?? '';
    this.tools = [...(options.tools ?? [])];
    checkToolSources(this.name, options.toolSources);
    this.toolSources = [...(options.toolSources ?? [])];
    this.hostedTools = [...(options.hostedTools ?? [])];
    const hostedNames = new Set<string>();
    for (const hosted of this.hostedTools) {
      const name = hostedToolName(hosted);
      if (hostedNames.has(name)) {
        throw new UserError(`Agent "${this.name}" has the hosted tool ${name} twice; declare it once.`, {
          code: 'invalid_option',
        });
      }
      hostedNames.add(name);
    }
    this.handoffs = [...(options.handoffs ?? [])];
    this.inputGuardrails = [...(options.inputGuardrails ?? [])];
    this.outputGuardrails = [...(options.outputGuardrails ?? [])];
    this.outputType = options.outputType;
    this.model = options.model;
    this.modelSettings = { ...(options.modelSettings ?? {}) };
    if (options.toolUseBehavior !== undefined) checkToolUseBehavior(this.name, options.toolUseBehavior);
    this.toolUseBehavior = options.toolUseBehavior ?? 'run_llm_again';
    const names = new Set<string>();
    for (const name of [...this.tools.map((t) => t.name), ...this.getHandoffs().map((h) => h.toolName)]) {
      if (names.has(name)) {
        throw new UserError(
          `Agent "${this.name}" has two tools named "${name}"; tool and handoff names must be unique.`,
        );
      }
      names.add(name);
    }
  }

  /** A copy of this agent with some options replaced. */
  clone<TNewOutput extends z.ZodType | undefined = TOutput>(
    overrides: Partial<AgentOptions<TContext, TNewOutput>>,
  ): Agent<TContext, TNewOutput> {
    return new Agent<TContext, TNewOutput>({
      name: this.name,
      instructions: this.instructions,
      handoffDescription: this.handoffDescription,
      tools: [...this.tools],
      toolSources: [...this.toolSources],
      hostedTools: [...this.hostedTools],
      handoffs: [...this.handoffs],
      inputGuardrails: [...this.inputGuardrails],
      outputGuardrails: [...this.outputGuardrails],
      outputType: this.outputType as unknown as TNewOutput,
      model: this.model,
      modelSettings: this.modelSettings,
      toolUseBehavior: this.toolUseBehavior,
      ...overrides,
    });
  }

  /**
   * This agent as a tool another agent's model can call: each call is a run of this agent of its own (its
   * tools, guardrails and approvals; cancelled with the caller; traced under the call's span), and its final
   * output is the call's output. Approvals inside surface on the caller: as the outer run's interruptions
   * (resumable through its `RunState`), or as the realtime session's `tool_approval_requested`.
   *
   * ```ts
   * const manager = new Agent({ name: 'Manager', tools: [billing.asTool({ description: 'Answers billing questions.' })] });
   * ```
   */
  asTool<TParameters extends z.ZodObject = typeof AGENT_TOOL_PARAMETERS>(
    options: AgentToolOptions<TContext, TParameters> = {},
  ): AgentTool<TContext, TParameters> {
    return agentAsTool(this as AnyAgent<TContext>, options);
  }

  /** The instructions for this run: the fixed text, or the function's result. */
  async getInstructions(context: RunContext<TContext>): Promise<string | undefined> {
    if (typeof this.instructions === 'function')
      return await this.instructions(context, this as Agent<TContext>);
    return this.instructions;
  }

  #handoffs: Handoff<TContext>[] | undefined;
  #toolDefinitions: ToolDefinition[] | undefined;

  /** This agent's handoffs, each normalized to a {@link Handoff}. */
  getHandoffs(): Handoff<TContext>[] {
    this.#handoffs ??= this.handoffs.map((entry) => (entry instanceof Agent ? handoff(entry) : entry));
    return [...this.#handoffs];
  }

  /** The function tool with the given name, if any (a tool source's, as last listed, included). */
  findTool(name: string): AnyFunctionTool<TContext> | undefined {
    const own = this.tools.find((t) => t.name === name);
    if (own || this.toolSources.length === 0) return own;
    for (const source of this.toolSources) {
      const found = source.cachedTools.find((t) => t.name === name);
      if (found) return found;
    }
    return undefined;
  }

  /**
   * @internal Throws a `UserError` (`tool_name_conflict`) when a tool source's tool has the name of another tool
   * or handoff of this agent.
   */
  checkSourceTools(): void {
    const owners = new Map<string, string>();
    for (const t of this.tools) owners.set(t.name, 'a function tool');
    for (const h of this.getHandoffs()) owners.set(h.toolName, 'a handoff');
    for (const source of this.toolSources) {
      for (const t of source.cachedTools) {
        const other = owners.get(t.name);
        if (other !== undefined) {
          throw new UserError(
            `Agent "${this.name}": tool "${t.name}" of tool source "${source.name}" has the name of ${other}. Give the source a toolNamePrefix or filter the tool out.`,
            { code: 'tool_name_conflict' },
          );
        }
        owners.set(t.name, `a tool of "${source.name}"`);
      }
    }
  }

  /** The handoff offered under the given tool name, if any. */
  findHandoff(toolName: string): Handoff<TContext> | undefined {
    if (this.handoffs.length === 0) return undefined;
    return this.getHandoffs().find((h) => h.toolName === toolName);
  }

  /** Everything the model is offered: tools first, then handoffs, then the tool sources' tools as last listed. */
  toolDefinitions(): ToolDefinition[] {
    this.#toolDefinitions ??= [
      ...this.tools.map((t) => toolDefinition(t)),
      ...this.getHandoffs().map((h) => h.toolDefinition()),
    ];
    if (this.toolSources.length === 0) return [...this.#toolDefinitions];
    return [
      ...this.#toolDefinitions,
      ...this.toolSources.flatMap((source) => source.cachedTools.map((t) => toolDefinition(t))),
    ];
  }
}
