import type { AnyAgent } from '../agent.js';
import type { RunContext } from '../context.js';
import type { Model, ModelResponse } from '../model.js';
import { inSpan, startSpan, type TraceSpan, tracingEnabled } from '../tracing.js';
import type { LoopEnv } from './loop-env.js';

/** The span a run's work hangs under: its current turn, else the run itself. Keyed by the run's context. */
const parents = new WeakMap<RunContext<unknown>, { run: TraceSpan; turn: TraceSpan | undefined }>();

function parentOf(context: RunContext<unknown>): TraceSpan | undefined {
  const spans = parents.get(context);
  return spans?.turn ?? spans?.run;
}

/** The span of the tool call a run works for, keyed by that run's options (see {@link runUnderSpan}). */
const runParents = new WeakMap<object, TraceSpan>();

/** Marks the run started with `options` as working for the tool call of `span` (an agent tool's run). */
export function runUnderSpan(options: object, span: TraceSpan | undefined): void {
  if (span) runParents.set(options, span);
}

/** The span the run started with `options` hangs under, if it works for a tool call. */
export function runParentSpan(options: object): TraceSpan | undefined {
  return runParents.get(options);
}

// Every helper below calls its work directly when tracing is off: no span, no attributes, no extra promise.

/** A run: one `invoke_agent` span over all of its turns (a resumed run is a new span). */
export async function traceRun<TContext>(env: LoopEnv<TContext>, work: () => Promise<void>): Promise<void> {
  if (!tracingEnabled()) return await work();
  const context = env.data.runContext as RunContext<unknown>;
  const outer = parents.get(context);
  const agent = env.data.currentAgent;
  await inSpan(
    `invoke_agent ${agent.name}`,
    { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': agent.name },
    outer?.turn ?? outer?.run ?? env.parentSpan,
    async (run) => {
      parents.set(context, { run, turn: undefined });
      try {
        await work();
        run.set({ 'parley.run.status': env.data.status });
      } catch (error) {
        parents.get(context)?.turn?.fail(error);
        throw error;
      } finally {
        parents.get(context)?.turn?.end();
        const usage = context.usage;
        run.set({
          'gen_ai.usage.input_tokens': usage.inputTokens,
          'gen_ai.usage.output_tokens': usage.outputTokens,
        });
        if (outer) parents.set(context, outer);
        else parents.delete(context);
      }
    },
  );
}

/** Starts the span of the run's next turn, ending the previous one. */
export function beginTurn<TContext>(env: LoopEnv<TContext>, agent: AnyAgent<TContext>, turn: number): void {
  const spans = parents.get(env.data.runContext as RunContext<unknown>);
  if (!spans) return;
  spans.turn?.end();
  spans.turn = startSpan(
    'parley.turn',
    { 'parley.turn.number': turn, 'gen_ai.agent.name': agent.name },
    spans.run,
  );
}

/** A model call: a `chat` span with the provider, the model name (when the agent names one) and token usage. */
export function traceModelCall<TContext>(
  env: LoopEnv<TContext>,
  model: Model,
  call: () => Promise<ModelResponse>,
): Promise<ModelResponse> {
  if (!tracingEnabled()) return call();
  const choice = env.settings.model ?? env.data.currentAgent.model;
  const name = typeof choice === 'string' ? choice : undefined;
  return inSpan(
    name ? `chat ${name}` : 'chat',
    {
      'gen_ai.operation.name': 'chat',
      'gen_ai.system': model.provider,
      'gen_ai.request.model': name,
      'gen_ai.agent.name': env.data.currentAgent.name,
    },
    parentOf(env.data.runContext as RunContext<unknown>),
    async (span) => {
      const response = await call();
      span.set({
        'gen_ai.response.id': response.responseId,
        'gen_ai.usage.input_tokens': response.usage.inputTokens,
        'gen_ai.usage.output_tokens': response.usage.outputTokens,
      });
      return response;
    },
  );
}

/** A tool call: an `execute_tool` span with the tool's name, the call id and how it ended (never arguments or output). */
export function traceToolCall<T extends { status: string; error?: unknown }>(
  context: RunContext<unknown>,
  tool: { name: string },
  callId: string,
  call: (span: TraceSpan | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) return call(undefined);
  return inSpan(
    `execute_tool ${tool.name}`,
    {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': tool.name,
      'gen_ai.tool.call.id': callId,
      'gen_ai.tool.type': 'function',
    },
    parentOf(context),
    async (span) => {
      const result = await call(span);
      span.set({ 'parley.tool.status': result.status });
      if (result.status === 'failed') span.fail(result.error);
      else if (result.status !== 'completed') span.set({ 'error.type': result.status });
      return result;
    },
  );
}

/** A guardrail: a span with its name, kind and whether it tripped. */
export function traceGuardrail<T extends { tripwireTriggered: boolean }>(
  context: RunContext<unknown>,
  name: string,
  kind: 'input' | 'output',
  check: () => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) return check();
  return inSpan(
    `parley.guardrail ${name}`,
    { 'parley.guardrail.name': name, 'parley.guardrail.kind': kind },
    parentOf(context),
    async (span) => {
      const output = await check();
      span.set({ 'parley.guardrail.tripwire_triggered': output.tripwireTriggered });
      return output;
    },
  );
}

/** A handoff: a span naming the agent handing off and the one taking over. */
export function traceHandoff<TContext>(
  env: LoopEnv<TContext>,
  from: AnyAgent<TContext>,
  to: AnyAgent<TContext>,
  callId: string,
  work: () => Promise<void>,
): Promise<void> {
  if (!tracingEnabled()) return work();
  return inSpan(
    `parley.handoff ${to.name}`,
    {
      'parley.handoff.from_agent': from.name,
      'parley.handoff.to_agent': to.name,
      'gen_ai.tool.call.id': callId,
    },
    parentOf(env.data.runContext as RunContext<unknown>),
    () => work(),
  );
}
