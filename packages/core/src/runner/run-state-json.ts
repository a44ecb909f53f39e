import { z } from 'zod';
import type { AnyAgent } from '../agent.js';
import { createRunContext } from '../context.js';
import { UserError } from '../errors.js';
import { HOSTED_TOOL_KINDS } from '../hosted-tool.js';
import {
  type ConversationItem,
  type FunctionCallItem,
  type FunctionCallOutputItem,
  HOSTED_TOOL_CALL_STATUSES,
  type HostedToolApprovalRequestItem,
  type HostedToolCallItem,
  type HostedToolItem,
  type MessageItem,
} from '../items.js';
import { toolAgent } from '../nested-run.js';
import type { Usage } from '../usage.js';
import { agentsByName, findAgent } from './agent-graph.js';
import type { RunItem } from './run-items.js';
import type { NestedRun, RunStateData } from './run-state-data.js';

/** The `$schemaVersion` this release writes. It reads every version in {@link READABLE_VERSIONS}. */
export const RUN_STATE_SCHEMA_VERSION = '1.0';

const READABLE_VERSIONS: readonly string[] = ['1.0'];

/** A run item in a saved {@link RunStateJson}: agents are referred to by name. */
export type RunItemJson =
  | { type: 'message_output_item'; agent: string; rawItem: MessageItem }
  | {
      type: 'tool_call_item' | 'handoff_call_item';
      agent: string;
      rawItem: FunctionCallItem;
    }
  | { type: 'tool_approval_item'; agent: string; rawItem: FunctionCallItem | HostedToolApprovalRequestItem }
  | { type: 'hosted_tool_item'; agent: string; rawItem: HostedToolItem }
  | { type: 'tool_call_output_item'; agent: string; rawItem: FunctionCallOutputItem }
  | {
      type: 'handoff_output_item';
      agent: string;
      rawItem: FunctionCallOutputItem;
      sourceAgent: string;
      targetAgent: string;
    };

/** A guardrail's output in a saved {@link RunStateJson}. */
export interface GuardrailOutputJson {
  tripwireTriggered: boolean;
  outputInfo?: unknown;
}

/** A tool guardrail's decision on one call, in a saved {@link RunStateJson}. */
export interface ToolGuardrailResultJson {
  guardrail: { name: string };
  toolName: string;
  callId: string;
  decision:
    | { type: 'allow' }
    | { type: 'reject_content'; message: string }
    | { type: 'throw_exception'; outputInfo?: unknown };
}

/**
 * The JSON form of a `RunState`, version 1.0. Written out rather than inferred from the schema, so the published
 * declarations do not depend on one zod version's internal types.
 */
export interface RunStateJson {
  $schemaVersion: '1.0';
  status: 'in_progress' | 'interrupted' | 'completed' | 'aborted' | 'failed';
  startingAgent: string;
  currentAgent: string;
  currentAgentStarted: boolean;
  currentTurn: number;
  /** `null` means unlimited (`Infinity` has no JSON form). */
  maxTurns: number | null;
  originalInput: string | ConversationItem[];
  sessionHistory: ConversationItem[];
  modelInputOverride: { items: ConversationItem[]; fromItem: number } | null;
  generatedItems: RunItemJson[];
  modelResponses: { output: ConversationItem[]; usage: Usage; responseId?: string }[];
  usage: Usage;
  inputGuardrailResults: { guardrail: { name: string }; output: GuardrailOutputJson }[];
  outputGuardrailResults: {
    guardrail: { name: string };
    agentName: string;
    agentOutput: unknown;
    output: GuardrailOutputJson;
  }[];
  /** Written only when not empty (and absent in states saved before they were kept). */
  toolInputGuardrailResults?: ToolGuardrailResultJson[];
  toolOutputGuardrailResults?: ToolGuardrailResultJson[];
  pendingTurn: {
    calls: FunctionCallItem[];
    firstItemIndex: number;
    hostedApprovals?: HostedToolApprovalRequestItem[];
  } | null;
  approvals: { callId: string; arguments: string; approved: boolean; message?: string }[];
  /** Agent-tool runs paused with this run, by outer call id; written only when not empty. */
  nestedRuns?: Record<string, { toolName: string; state: RunStateJson }>;
  hasFinalOutput: boolean;
  finalOutput?: unknown;
  sessionSaved: { input: boolean; items: number; writeId?: string };
}

const usageSchema = z.object({
  requests: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  totalTokens: z.number(),
});

const messageSchema = z.object({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string(),
  id: z.string().optional(),
});
const functionCallSchema = z.object({
  type: z.literal('function_call'),
  callId: z.string(),
  name: z.string(),
  arguments: z.string(),
  id: z.string().optional(),
});
const functionCallOutputSchema = z.object({
  type: z.literal('function_call_output'),
  callId: z.string(),
  output: z.string(),
});
const hostedApprovalRequestSchema = z.object({
  type: z.literal('hosted_tool_approval_request'),
  callId: z.string(),
  server: z.string(),
  name: z.string(),
  arguments: z.string(),
});
const hostedApprovalResponseSchema = z.object({
  type: z.literal('hosted_tool_approval_response'),
  callId: z.string(),
  approved: z.boolean(),
  reason: z.string().optional(),
});
// Its details differ per kind and are kept as they came (the provider's own form included).
const hostedCallSchema = z.custom<HostedToolCallItem>((value) => {
  const item = value as Partial<Record<string, unknown>> | null;
  return (
    typeof item === 'object' &&
    item !== null &&
    item.type === 'hosted_tool_call' &&
    (HOSTED_TOOL_KINDS as readonly unknown[]).includes(item.kind) &&
    typeof item.id === 'string' &&
    (HOSTED_TOOL_CALL_STATUSES as readonly unknown[]).includes(item.status)
  );
}, 'expected a hosted_tool_call item with a known kind, an id and a status');
const hostedItemSchema = z.union([
  hostedCallSchema,
  hostedApprovalRequestSchema,
  hostedApprovalResponseSchema,
]);
const conversationItemSchema = z.union([
  z.discriminatedUnion('type', [
    messageSchema,
    functionCallSchema,
    functionCallOutputSchema,
    hostedApprovalRequestSchema,
    hostedApprovalResponseSchema,
  ]),
  hostedCallSchema,
]);

const runItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message_output_item'), agent: z.string(), rawItem: messageSchema }),
  z.object({ type: z.literal('tool_call_item'), agent: z.string(), rawItem: functionCallSchema }),
  z.object({
    type: z.literal('tool_call_output_item'),
    agent: z.string(),
    rawItem: functionCallOutputSchema,
  }),
  z.object({ type: z.literal('handoff_call_item'), agent: z.string(), rawItem: functionCallSchema }),
  z.object({
    type: z.literal('handoff_output_item'),
    agent: z.string(),
    rawItem: functionCallOutputSchema,
    sourceAgent: z.string(),
    targetAgent: z.string(),
  }),
  z.object({
    type: z.literal('tool_approval_item'),
    agent: z.string(),
    rawItem: z.union([functionCallSchema, hostedApprovalRequestSchema]),
  }),
  z.object({ type: z.literal('hosted_tool_item'), agent: z.string(), rawItem: hostedItemSchema }),
]);

const guardrailOutputSchema = z.object({
  tripwireTriggered: z.boolean(),
  outputInfo: z.unknown().optional(),
});

const toolGuardrailResultSchema = z.object({
  guardrail: z.object({ name: z.string() }),
  toolName: z.string(),
  callId: z.string(),
  decision: z.discriminatedUnion('type', [
    z.object({ type: z.literal('allow') }),
    z.object({ type: z.literal('reject_content'), message: z.string() }),
    z.object({ type: z.literal('throw_exception'), outputInfo: z.unknown().optional() }),
  ]),
});

const runStateV1Schema: z.ZodType<RunStateJson> = z.object({
  $schemaVersion: z.literal('1.0'),
  status: z.enum(['in_progress', 'interrupted', 'completed', 'aborted', 'failed']),
  startingAgent: z.string(),
  currentAgent: z.string(),
  currentAgentStarted: z.boolean(),
  currentTurn: z.number().int().nonnegative(),
  maxTurns: z.number().int().nonnegative().nullable(),
  originalInput: z.union([z.string(), z.array(conversationItemSchema)]),
  sessionHistory: z.array(conversationItemSchema),
  modelInputOverride: z
    .object({ items: z.array(conversationItemSchema), fromItem: z.number().int().nonnegative() })
    .nullable(),
  generatedItems: z.array(runItemSchema),
  modelResponses: z.array(
    z.object({
      output: z.array(conversationItemSchema),
      usage: usageSchema,
      responseId: z.string().optional(),
    }),
  ),
  usage: usageSchema,
  inputGuardrailResults: z.array(
    z.object({ guardrail: z.object({ name: z.string() }), output: guardrailOutputSchema }),
  ),
  outputGuardrailResults: z.array(
    z.object({
      guardrail: z.object({ name: z.string() }),
      agentName: z.string(),
      agentOutput: z.unknown(),
      output: guardrailOutputSchema,
    }),
  ),
  /** Written only when not empty (and absent in states saved before they were kept). */
  toolInputGuardrailResults: z.array(toolGuardrailResultSchema).optional(),
  toolOutputGuardrailResults: z.array(toolGuardrailResultSchema).optional(),
  pendingTurn: z
    .object({
      calls: z.array(functionCallSchema),
      firstItemIndex: z.number().int().nonnegative(),
      hostedApprovals: z.array(hostedApprovalRequestSchema).optional(),
    })
    .nullable(),
  approvals: z.array(
    z.object({
      callId: z.string(),
      arguments: z.string(),
      approved: z.boolean(),
      message: z.string().optional(),
    }),
  ),
  nestedRuns: z
    .record(
      z.string(),
      z.object({
        toolName: z.string(),
        // Checked when it is restored, against the nested agent.
        state: z.custom<RunStateJson>((value) => typeof value === 'object' && value !== null),
      }),
    )
    .optional(),
  hasFinalOutput: z.boolean(),
  finalOutput: z.unknown().optional(),
  sessionSaved: z.object({
    input: z.boolean(),
    items: z.number().int().nonnegative(),
    writeId: z.string().optional(),
  }),
});

type SerializedRunItem = RunItemJson;

function serializeItem<TContext>(item: RunItem<TContext>): SerializedRunItem {
  if (item.type === 'handoff_output_item') {
    return {
      type: item.type,
      agent: item.agent.name,
      rawItem: item.rawItem,
      sourceAgent: item.sourceAgent.name,
      targetAgent: item.targetAgent.name,
    };
  }
  return { type: item.type, agent: item.agent.name, rawItem: item.rawItem } as SerializedRunItem;
}

/** The JSON form of a run's state. */
export function runStateToJson<TContext>(data: RunStateData<TContext>): RunStateJson {
  return {
    $schemaVersion: RUN_STATE_SCHEMA_VERSION,
    status: data.status,
    startingAgent: data.startingAgent.name,
    currentAgent: data.currentAgent.name,
    currentAgentStarted: data.currentAgentStarted,
    currentTurn: data.currentTurn,
    maxTurns: Number.isFinite(data.maxTurns) ? data.maxTurns : null,
    originalInput: data.originalInput,
    sessionHistory: data.sessionHistory,
    modelInputOverride: data.modelInputOverride ?? null,
    generatedItems: data.generatedItems.map(serializeItem),
    modelResponses: data.modelResponses.map((response) => ({
      output: response.output,
      usage: response.usage,
      ...(response.responseId === undefined ? {} : { responseId: response.responseId }),
    })),
    usage: data.runContext.usage,
    inputGuardrailResults: data.inputGuardrailResults,
    outputGuardrailResults: data.outputGuardrailResults,
    ...(data.toolInputGuardrailResults.length > 0
      ? { toolInputGuardrailResults: data.toolInputGuardrailResults }
      : {}),
    ...(data.toolOutputGuardrailResults.length > 0
      ? { toolOutputGuardrailResults: data.toolOutputGuardrailResults }
      : {}),
    pendingTurn: data.pendingTurn ?? null,
    approvals: [...data.approvals.values()],
    ...(data.nestedRuns && data.nestedRuns.size > 0
      ? {
          nestedRuns: Object.fromEntries(
            [...data.nestedRuns].map(([callId, nested]) => [
              callId,
              { toolName: nested.toolName, state: runStateToJson(nested.data) },
            ]),
          ),
        }
      : {}),
    hasFinalOutput: data.hasFinalOutput,
    ...(data.hasFinalOutput ? { finalOutput: data.finalOutput } : {}),
    sessionSaved: data.sessionSaved,
  };
}

function checkVersion(json: unknown): void {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new UserError('This is not a saved RunState: expected a JSON object from state.toString().', {
      code: 'run_state_invalid',
    });
  }
  const version = (json as { $schemaVersion?: unknown }).$schemaVersion;
  if (version === undefined) {
    throw new UserError(
      'This saved RunState has no $schemaVersion, so it cannot be read safely. Save states with state.toString().',
      { code: 'run_state_version_missing' },
    );
  }
  if (typeof version === 'string' && READABLE_VERSIONS.includes(version)) return;
  const [major, minor] = typeof version === 'string' ? version.split('.').map(Number) : [];
  const [currentMajor, currentMinor] = RUN_STATE_SCHEMA_VERSION.split('.').map(Number) as [number, number];
  const isFuture =
    typeof version === 'string' &&
    /^\d+\.\d+$/.test(version) &&
    major !== undefined &&
    minor !== undefined &&
    (major > currentMajor || (major === currentMajor && minor > currentMinor));
  throw new UserError(
    isFuture
      ? `This saved RunState has $schemaVersion ${version}, written by a newer @parley/core; this version reads ${READABLE_VERSIONS.join(', ')}. Upgrade @parley/core to resume it.`
      : `This saved RunState has an unknown $schemaVersion ${JSON.stringify(version)}; this version of @parley/core reads ${READABLE_VERSIONS.join(', ')}.`,
    { code: 'run_state_version_unsupported' },
  );
}

/** Parses a saved state and rebuilds it around the agent graph reachable from `startingAgent`. */
export function runStateDataFromString<TContext>(
  startingAgent: AnyAgent<TContext>,
  text: string,
): RunStateData<TContext> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new UserError('This saved RunState is not valid JSON. Pass the exact string of state.toString().', {
      code: 'run_state_invalid',
      cause,
    });
  }
  checkVersion(raw);
  const parsed = runStateV1Schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new UserError(
      `This saved RunState is malformed (${issues}). Pass the exact string of state.toString().`,
      {
        code: 'run_state_invalid',
      },
    );
  }
  const json = parsed.data;
  if (json.startingAgent !== startingAgent.name) {
    throw new UserError(
      `This RunState was created for starting agent "${json.startingAgent}", not "${startingAgent.name}". Pass the agent the run started with.`,
      { code: 'run_state_agent_mismatch' },
    );
  }
  const graph = agentsByName(startingAgent);
  const agent = (name: string) => findAgent(graph, name);
  const runContext = createRunContext<TContext>(undefined as TContext);
  Object.assign(runContext.usage, json.usage);
  const generatedItems = json.generatedItems.map((item): RunItem<TContext> => {
    if (item.type === 'handoff_output_item') {
      return {
        type: item.type,
        agent: agent(item.agent),
        rawItem: item.rawItem,
        sourceAgent: agent(item.sourceAgent),
        targetAgent: agent(item.targetAgent),
      };
    }
    return { ...item, agent: agent(item.agent) } as RunItem<TContext>;
  });
  const currentAgent = agent(json.currentAgent);
  const nestedRuns = json.nestedRuns
    ? new Map(
        Object.entries(json.nestedRuns).map(([callId, nested]) => [
          callId,
          restoreNestedRun(currentAgent, nested.toolName, nested.state),
        ]),
      )
    : undefined;
  return {
    status: json.status,
    startingAgent,
    currentAgent,
    currentAgentStarted: json.currentAgentStarted,
    currentTurn: json.currentTurn,
    maxTurns: json.maxTurns ?? Number.POSITIVE_INFINITY,
    originalInput: json.originalInput as string | ConversationItem[],
    sessionHistory: json.sessionHistory,
    modelInputOverride: json.modelInputOverride ?? undefined,
    generatedItems,
    modelResponses: json.modelResponses,
    runContext,
    inputGuardrailResults: json.inputGuardrailResults,
    outputGuardrailResults: json.outputGuardrailResults,
    toolInputGuardrailResults: json.toolInputGuardrailResults ?? [],
    toolOutputGuardrailResults: json.toolOutputGuardrailResults ?? [],
    pendingTurn: json.pendingTurn ?? undefined,
    approvals: new Map(json.approvals.map((decision) => [decision.callId, decision])),
    ...(nestedRuns ? { nestedRuns } : {}),
    hasFinalOutput: json.hasFinalOutput,
    finalOutput: json.finalOutput,
    sessionSaved: json.sessionSaved,
    running: false,
  };
}

/** A paused agent-tool run, rebuilt around the agent of the tool the paused call called. */
function restoreNestedRun<TContext>(
  caller: AnyAgent<TContext>,
  toolName: string,
  state: unknown,
): NestedRun<TContext> {
  const tool = caller.findTool(toolName);
  const nestedAgent = tool && toolAgent<TContext>(tool);
  if (!nestedAgent) {
    throw new UserError(
      `The saved run paused inside agent tool "${toolName}", but agent "${caller.name}" has no agent tool of that name (made with agent.asTool()). Pass the same agents the run was created with.`,
      { code: 'run_state_agent_not_found' },
    );
  }
  return { toolName, data: runStateDataFromString(nestedAgent, JSON.stringify(state)) };
}
