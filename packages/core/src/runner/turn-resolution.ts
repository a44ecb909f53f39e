import type { z } from 'zod';
import { abortable } from '../abortable.js';
import type { AnyAgent, AnyFunctionTool, FunctionToolResult, ToolsToFinalOutputFunction } from '../agent.js';
import { ModelBehaviorError } from '../errors.js';
import type { ToolGuardrailResult } from '../guardrails.js';
import type { Handoff } from '../handoff.js';
import { decideHostedMcpApproval, findHostedMcpTool } from '../hosted-tool.js';
import type {
  FunctionCallItem,
  FunctionCallOutputItem,
  HostedToolApprovalRequestItem,
  HostedToolApprovalResponseItem,
  MessageItem,
} from '../items.js';
import { errorText, log } from '../logger.js';
import type { ModelResponse } from '../model.js';
import { NestedRunPaused, type NestedRunPort, toolAgent } from '../nested-run.js';
import {
  callNeedsApproval,
  defaultToolErrorFunction,
  type InvokeToolOptions,
  invokeFunctionTool,
  type ParsedToolArguments,
  parseToolArguments,
  type ToolCallInfo,
  type ToolInvocationResult,
} from '../tool.js';
import type { TraceSpan } from '../tracing.js';
import { runAllOrAbort } from './concurrency.js';
import { addItem, emitHook, inputToItems, type LoopEnv } from './loop-env.js';
import type { NextStep } from './next-step.js';
import { formatToolError, type ToolErrorKind } from './run-config.js';
import { runItemsToConversation } from './run-items.js';
import { createRunState, type RunState, runStateData } from './run-state.js';
import type { PendingTurn } from './run-state-data.js';
import { traceHandoff, traceToolCall } from './run-tracing.js';
import type { RunStreamEvent } from './stream-events.js';

function callInfo(call: FunctionCallItem): ToolCallInfo {
  return { callId: call.callId, name: call.name, arguments: call.arguments };
}

function output(call: FunctionCallItem, text: string): FunctionCallOutputItem {
  return { type: 'function_call_output', callId: call.callId, output: text };
}

/**
 * Records a model response's items, then resolves its function calls (or its final output) into the
 * turn's {@link NextStep}.
 */
export async function processModelResponse<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
  response: ModelResponse,
): Promise<NextStep> {
  checkCallIds(env, agent, response);
  const firstItemIndex = env.data.generatedItems.length;
  const calls: FunctionCallItem[] = [];
  const hostedApprovals: HostedToolApprovalRequestItem[] = [];
  for (const item of response.output) {
    if (item.type === 'message' && item.role === 'assistant') {
      addItem(env, { type: 'message_output_item', agent, rawItem: item });
    } else if (item.type === 'function_call') {
      calls.push(item);
      const type = agent.findHandoff(item.name) ? 'handoff_call_item' : 'tool_call_item';
      addItem(env, { type, agent, rawItem: item });
    } else if (item.type === 'hosted_tool_call' || item.type === 'hosted_tool_approval_request') {
      if (item.type === 'hosted_tool_approval_request') hostedApprovals.push(item);
      addItem(env, { type: 'hosted_tool_item', agent, rawItem: item });
    }
  }
  if (calls.length === 0 && hostedApprovals.length === 0) return finalOutputStep(agent, response);
  return await resolveCalls(
    env,
    agent,
    hostedApprovals.length > 0 ? { calls, firstItemIndex, hostedApprovals } : { calls, firstItemIndex },
  );
}

/** Continues a turn paused for approvals: applies the decisions and runs what is left. */
export async function resumePendingTurn<TContext>(
  env: LoopEnv<TContext>,
  turn: PendingTurn,
): Promise<NextStep> {
  return await resolveCalls(env, env.data.currentAgent, turn);
}

function finalOutputStep<TContext>(agent: AnyAgent<TContext>, response: ModelResponse): NextStep {
  const messages = response.output.filter(
    (item): item is MessageItem => item.type === 'message' && item.role === 'assistant',
  );
  const last = messages.at(-1);
  if (!last) {
    throw new ModelBehaviorError(
      `Agent "${agent.name}": the model returned neither a message nor a function call, so there is no final output.`,
    );
  }
  if (!agent.outputType) return { type: 'final_output', output: last.content };
  let json: unknown;
  try {
    json = JSON.parse(last.content);
  } catch (cause) {
    throw new ModelBehaviorError(
      `Agent "${agent.name}" expects structured output (outputType), but the model's final message is not valid JSON.`,
      { cause },
    );
  }
  const schema: z.ZodType = agent.outputType;
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
      .join('; ');
    throw new ModelBehaviorError(
      `Agent "${agent.name}": the model's final output does not match outputType (${issues}).`,
      { cause: parsed.error },
    );
  }
  return { type: 'final_output', output: parsed.data };
}

/**
 * A call id must be new: one the conversation already answered (or one repeated within the response)
 * would give the next request two calls for one output, which providers reject.
 */
function checkCallIds<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
  response: ModelResponse,
): void {
  const seen = new Set<string>();
  for (const item of response.output) {
    if (item.type !== 'function_call') continue;
    const again = env.answeredCallIds.has(item.callId) || seen.has(item.callId);
    if (again) {
      throw new ModelBehaviorError(
        `Agent "${agent.name}": the model sent call id "${item.callId}" (${item.name}) again, but that call ${seen.has(item.callId) ? 'appears twice in one response' : 'already has an output'}. Each function call needs a new id.`,
      );
    }
    seen.add(item.callId);
  }
}

function toolErrorText<TContext>(
  env: LoopEnv<TContext>,
  kind: ToolErrorKind,
  call: FunctionCallItem,
  defaultMessage: string,
  error?: unknown,
): Promise<string> {
  return formatToolError(
    env.settings.toolErrorFormatter,
    kind,
    call,
    defaultMessage,
    env.data.runContext,
    error,
  );
}

function unknownToolText<TContext>(agent: AnyAgent<TContext>, name: string): string {
  const names = agent.toolDefinitions().map((definition) => definition.name);
  return `Tool "${name}" does not exist. Available tools: ${names.length ? names.join(', ') : '(none)'}. Call one of those instead.`;
}

/**
 * Resolves a turn's function calls: unknown tools and extra handoffs get an error output, approvals are
 * applied or requested, the remaining tools run concurrently (through `invokeFunctionTool`), then the first
 * handoff is taken. Calls that already have an output are skipped, so a resumed turn redoes nothing.
 */
async function resolveCalls<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
  turn: PendingTurn,
): Promise<NextStep> {
  const data = env.data;
  const answered = env.answeredCallIds;
  const outputs = new Map<string, FunctionCallOutputItem>();
  const toRun: { call: FunctionCallItem; tool: AnyFunctionTool<TContext>; parsed?: ParsedToolArguments }[] =
    [];
  const awaitingApproval: (FunctionCallItem | HostedToolApprovalRequestItem)[] = [];
  const hostedDecisions = turn.hostedApprovals
    ? await decideHostedApprovals(env, agent, turn, awaitingApproval)
    : NO_DECISIONS;
  let chosenHandoff: { call: FunctionCallItem; handoff: Handoff<TContext> } | undefined;
  let firstHandoffName: string | undefined;

  for (const call of turn.calls) {
    const handoff = agent.findHandoff(call.name);
    if (handoff) {
      if (firstHandoffName === undefined) {
        firstHandoffName = call.name;
        if (!answered.has(call.callId)) chosenHandoff = { call, handoff };
      } else if (!answered.has(call.callId)) {
        outputs.set(
          call.callId,
          output(
            call,
            `Only one handoff can happen per turn: "${firstHandoffName}" was taken, so this call to "${call.name}" was ignored.`,
          ),
        );
      }
      continue;
    }
    if (answered.has(call.callId)) continue;
    const tool = agent.findTool(call.name);
    if (!tool) {
      if (env.settings.unknownToolBehavior === 'raise_exception') {
        throw new ModelBehaviorError(
          `Agent "${agent.name}": the model called a tool that does not exist. ${unknownToolText(agent, call.name)}`,
        );
      }
      outputs.set(call.callId, output(call, unknownToolText(agent, call.name)));
      continue;
    }
    const decision = data.approvals.get(call.callId);
    if (decision && decision.arguments === call.arguments) {
      if (decision.approved) toRun.push({ call, tool });
      else {
        const text =
          decision.message ??
          (await toolErrorText(
            env,
            'approval_rejected',
            call,
            `The user rejected this call to "${call.name}"; it did not run.`,
          ));
        outputs.set(call.callId, output(call, text));
      }
      continue;
    }
    const parsed = parseToolArguments(tool, call.arguments);
    if (await callNeedsApproval(tool, data.runContext, callInfo(call), env.signal, parsed)) {
      awaitingApproval.push(call);
      continue;
    }
    toRun.push({ call, tool, parsed });
  }

  const results = await runAllOrAbort(
    env.signal,
    toRun.map(
      ({ call, tool, parsed }) =>
        (signal: AbortSignal) =>
          runTool(env, agent, tool, call, signal, parsed),
    ),
    env.abortForFailedBatch,
  );
  let nestedPaused = false;
  for (const result of results) {
    if (result === PAUSED) nestedPaused = true;
    else outputs.set(result.callId, result);
  }
  for (const call of turn.calls) {
    const result = outputs.get(call.callId);
    if (result) addItem(env, { type: 'tool_call_output_item', agent, rawItem: result });
  }
  for (const decision of hostedDecisions)
    addItem(env, { type: 'hosted_tool_item', agent, rawItem: decision });

  if (awaitingApproval.length > 0 || nestedPaused) {
    const requested = new Set(
      data.generatedItems
        .filter((item) => item.type === 'tool_approval_item')
        .map((item) => item.rawItem.callId),
    );
    for (const call of awaitingApproval) {
      if (!requested.has(call.callId)) addItem(env, { type: 'tool_approval_item', agent, rawItem: call });
    }
    data.pendingTurn = turn;
    return { type: 'interruption' };
  }
  data.pendingTurn = undefined;
  if (chosenHandoff) {
    const { call, handoff } = chosenHandoff;
    await traceHandoff(env, agent, handoff.agent, call.callId, () =>
      performHandoff(env, agent, call, handoff, turn.firstItemIndex),
    );
    return { type: 'handoff' };
  }
  return toolUseStep(env, agent, turn);
}

/**
 * The decisions on the turn's hosted approval requests, as the items that answer them: the app's (`state.approve()`),
 * else the server's `onApproval`; the requests still waiting go to `awaiting`. A request already answered is skipped.
 */
async function decideHostedApprovals<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
  turn: PendingTurn,
  awaiting: (FunctionCallItem | HostedToolApprovalRequestItem)[],
): Promise<HostedToolApprovalResponseItem[]> {
  const decided: HostedToolApprovalResponseItem[] = [];
  for (const request of turn.hostedApprovals ?? []) {
    if (env.answeredCallIds.has(request.callId)) continue;
    const decision = env.data.approvals.get(request.callId);
    if (!decision || decision.arguments !== request.arguments) {
      const automatic = await decideHostedMcpApproval(
        findHostedMcpTool(agent.hostedTools, request.server),
        env.data.runContext,
        { server: request.server, name: request.name, arguments: request.arguments, signal: env.signal },
        (error) =>
          log.error(
            `The onApproval of hosted MCP server "${request.server}" failed; the call was rejected: ${errorText(error)}`,
            { event: 'hosted_approval_failed', server: request.server, tool: request.name },
          ),
      );
      if (automatic === undefined) {
        awaiting.push(request);
        continue;
      }
      decided.push({
        type: 'hosted_tool_approval_response',
        callId: request.callId,
        approved: automatic.approve,
        ...(!automatic.approve && automatic.reason !== undefined && { reason: automatic.reason }),
      });
      continue;
    }
    const response: HostedToolApprovalResponseItem = {
      type: 'hosted_tool_approval_response',
      callId: request.callId,
      approved: decision.approved,
    };
    if (!decision.approved && decision.message !== undefined) response.reason = decision.message;
    decided.push(response);
  }
  return decided;
}

const NO_DECISIONS: readonly HostedToolApprovalResponseItem[] = Object.freeze([]);

const RUN_AGAIN: NextStep = Object.freeze({ type: 'run_again' });

/** The tool results of a turn: each call to one of the agent's tools that got its output (not a rejection). */
function turnToolResults<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
  turn: PendingTurn,
): FunctionToolResult<TContext>[] {
  const outputs = new Map<string, string>();
  const items = env.data.generatedItems;
  for (let index = turn.firstItemIndex; index < items.length; index++) {
    const item = items[index]!;
    if (item.type === 'tool_call_output_item') outputs.set(item.rawItem.callId, item.rawItem.output);
  }
  const results: FunctionToolResult<TContext>[] = [];
  for (const call of turn.calls) {
    const tool = agent.findTool(call.name);
    const text = outputs.get(call.callId);
    if (!tool || text === undefined || env.data.approvals.get(call.callId)?.approved === false) continue;
    results.push({ tool, call: callInfo(call), output: text });
  }
  return results;
}

/** After a turn's tools ran: the agent's `toolUseBehavior` decides between another model call and a final output. */
function toolUseStep<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
  turn: PendingTurn,
): NextStep | Promise<NextStep> {
  const behavior = agent.toolUseBehavior;
  if (behavior === 'run_llm_again') return RUN_AGAIN;
  const results = turnToolResults(env, agent, turn);
  if (results.length === 0) return RUN_AGAIN;
  if (behavior === 'stop_on_first_tool') return { type: 'final_output', output: results[0]!.output };
  if (typeof behavior === 'function') return decideWithFunction(env, behavior, results);
  const stop = results.find((result) => behavior.stopAtToolNames.includes(result.tool.name));
  return stop ? { type: 'final_output', output: stop.output } : RUN_AGAIN;
}

async function decideWithFunction<TContext>(
  env: LoopEnv<TContext>,
  decide: ToolsToFinalOutputFunction<TContext>,
  results: FunctionToolResult<TContext>[],
): Promise<NextStep> {
  const decision = await decide(env.data.runContext, results);
  return decision.isFinalOutput ? { type: 'final_output', output: decision.finalOutput } : RUN_AGAIN;
}

/** An agent tool's run paused for approvals: the call has no output yet, the turn pauses with it. */
const PAUSED = Symbol('paused');

async function runTool<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
  tool: AnyFunctionTool<TContext>,
  call: FunctionCallItem,
  signal: AbortSignal,
  parsed: ParsedToolArguments | undefined,
): Promise<FunctionCallOutputItem | typeof PAUSED> {
  const info = callInfo(call);
  const context = env.data.runContext;
  // The run's hooks objects are fixed for the run: without any, no event payloads are built.
  const hooked = env.settings.hooks.length > 0;
  if (hooked) await emitHook(env, 'tool_started', { agent, tool, call: info, context });
  const options: InvokeToolOptions<TContext> = {
    agent,
    runContext: context,
    call: info,
    signal,
    clock: env.clock,
    parsed,
    onGuardrailResult:
      tool.inputGuardrails.length > 0 || tool.outputGuardrails.length > 0
        ? (stage, guardrailResult) => recordToolGuardrailResult(env, stage, guardrailResult)
        : undefined,
    formatError: env.settings.toolErrorFormatter
      ? (error: unknown) =>
          toolErrorText(env, 'execution_failed', call, defaultToolErrorFunction(context, error), error)
      : undefined,
  };
  const nested = toolAgent(tool) !== undefined;
  const result = await traceToolCall(context, tool, call.callId, (span) =>
    nested ? invokeAgentTool(env, tool, options, span) : invokeFunctionTool(tool, options),
  );
  if (result.status === 'paused') return PAUSED;
  if (hooked) await emitHook(env, 'tool_done', { agent, tool, call: info, context, result });
  return output(call, result.output);
}

const PAUSED_RESULT: { readonly status: 'paused' } = Object.freeze({ status: 'paused' });

/**
 * Runs an agent tool's call, resuming the nested run it paused earlier. A nested run that pauses for
 * approvals is kept under the call id (its interruptions are the outer run's) and the call stays unanswered.
 */
async function invokeAgentTool<TContext>(
  env: LoopEnv<TContext>,
  tool: AnyFunctionTool<TContext>,
  options: InvokeToolOptions<TContext>,
  span: TraceSpan | undefined,
): Promise<ToolInvocationResult | typeof PAUSED_RESULT> {
  const nestedRuns = env.data.nestedRuns;
  const callId = options.call.callId;
  const paused = nestedRuns?.get(callId);
  const nestedAgent = toolAgent<TContext>(tool);
  const port: NestedRunPort = {
    parentSpan: span,
    pausedRun: paused ? (createRunState(paused.data) as RunState<unknown>) : undefined,
    paused: (state) => Promise.reject(new NestedRunPaused(state)),
    ...(env.stream &&
      nestedAgent && {
        onEvent: (event: RunStreamEvent<unknown>) =>
          env.emit({
            type: 'agent_tool_event',
            agent: nestedAgent,
            toolName: tool.name,
            toolCallId: callId,
            event: event as RunStreamEvent<TContext>,
          }),
      }),
  };
  try {
    const result = await invokeFunctionTool(tool, { ...options, nested: port });
    nestedRuns?.delete(callId);
    return result;
  } catch (error) {
    if (!(error instanceof NestedRunPaused)) throw error;
    env.data.nestedRuns ??= new Map();
    env.data.nestedRuns.set(callId, {
      toolName: tool.name,
      data: runStateData(error.state as RunState<TContext>),
    });
    return PAUSED_RESULT;
  }
}

function recordToolGuardrailResult<TContext>(
  env: LoopEnv<TContext>,
  stage: 'input' | 'output',
  result: ToolGuardrailResult,
): void {
  (stage === 'input' ? env.data.toolInputGuardrailResults : env.data.toolOutputGuardrailResults).push(result);
}

async function performHandoff<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
  call: FunctionCallItem,
  handoff: Handoff<TContext>,
  turnStart: number,
): Promise<void> {
  const data = env.data;
  const target = handoff.agent;
  if (handoff.onHandoff) {
    const onHandoff = handoff.onHandoff;
    await abortable(
      Promise.resolve().then(() => onHandoff(data.runContext, { signal: env.signal })),
      env.signal,
    );
  }
  addItem(env, {
    type: 'handoff_output_item',
    agent,
    rawItem: output(call, JSON.stringify({ assistant: target.name })),
    sourceAgent: agent,
    targetAgent: target,
  });
  if (handoff.inputFilter) {
    const from = data.modelInputOverride?.fromItem ?? 0;
    const split = Math.max(from, turnStart);
    const filtered = handoff.inputFilter({
      inputHistory: data.modelInputOverride?.items ?? [
        ...data.sessionHistory,
        ...inputToItems(data.originalInput),
      ],
      preHandoffItems: runItemsToConversation(data.generatedItems.slice(from, split)),
      newItems: runItemsToConversation(data.generatedItems.slice(split)),
    });
    data.modelInputOverride = {
      items: [...filtered.inputHistory, ...filtered.preHandoffItems, ...filtered.newItems],
      fromItem: data.generatedItems.length,
    };
  }
  await emitHook(env, 'handoff', {
    fromAgent: agent,
    toAgent: target,
    call: callInfo(call),
    context: data.runContext,
  });
  data.currentAgent = target;
  data.currentAgentStarted = false;
  if (env.stream) env.emit({ type: 'agent_updated', agent: target });
}
