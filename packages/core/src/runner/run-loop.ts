import type { AnyAgent } from '../agent.js';
import type { OutputGuardrailResult } from '../guardrails.js';
import { loadToolSources } from '../tool-source.js';
import { addUsage } from '../usage.js';
import { throwIfAborted } from './concurrency.js';
import { MaxTurnsExceededError, OutputGuardrailTripwireTriggered } from './errors.js';
import { guardrailsOfCheck, runOutputGuardrails, TrippedOutputGuardrail } from './guardrail-runs.js';
import { emitHook, type LoopEnv } from './loop-env.js';
import {
  buildRequest,
  callModel,
  callModelWithInputGuardrails,
  hasInputGuardrails,
  runBlockingInputGuardrails,
} from './model-call.js';
import { resolveModel } from './model-resolution.js';
import type { NextStep } from './next-step.js';
import { beginTurn, traceRun } from './run-tracing.js';
import { processModelResponse, resumePendingTurn } from './turn-resolution.js';

/**
 * The turn loop. Each turn makes one model call (counted before it is made), and the response resolves
 * into exactly one {@link NextStep}. A paused turn is resumed first, without a new model call.
 * Returns when the run completes, pauses for approvals, or stops after a turn on request.
 */
export async function runLoop<TContext>(env: LoopEnv<TContext>): Promise<void> {
  await traceRun(env, () => runTurns(env));
}

async function runTurns<TContext>(env: LoopEnv<TContext>): Promise<void> {
  const data = env.data;
  if (env.stream) env.emit({ type: 'agent_updated', agent: data.currentAgent });
  if (data.status === 'interrupted' && data.pendingTurn) {
    data.status = 'in_progress';
    const loading = loadToolSources(data.currentAgent, data.runContext, env.signal);
    if (loading) await loading;
    const step = await resumePendingTurn(env, data.pendingTurn);
    if (await applyStep(env, data.currentAgent, step)) return;
  }
  for (;;) {
    // Turn boundary: a streamed run waits for its reader, so a cancel('after_turn') issued on any event of
    // the turn that just ended is seen before the next model call.
    if (env.stream) await env.consumerCaughtUp();
    if (env.stopAfterTurn()) return;
    throwIfAborted(env.signal);
    const agent = data.currentAgent;
    if (data.currentTurn >= data.maxTurns) throw new MaxTurnsExceededError(data.maxTurns, env.state);
    beginTurn(env, agent, data.currentTurn + 1);
    const resolved = resolveModel(agent, env.settings, env.stream);
    const model = resolved instanceof Promise ? await resolved : resolved;
    if (!data.currentAgentStarted) {
      data.currentAgentStarted = true;
      await emitHook(env, 'agent_started', { agent, context: data.runContext, turn: data.currentTurn + 1 });
    }
    const loading = loadToolSources(agent, data.runContext, env.signal);
    if (loading) await loading;
    const guarded = hasInputGuardrails(env, agent);
    if (guarded) await runBlockingInputGuardrails(env, agent);
    const request = await buildRequest(env, agent, model);
    throwIfAborted(env.signal);
    data.currentTurn += 1;
    const response = guarded
      ? await callModelWithInputGuardrails(env, agent, model, request)
      : await callModel(env, model, request, env.signal);
    data.modelResponses.push(response);
    // A response counts as one request unless the model reports how many it made.
    addUsage(data.runContext.usage, response.usage);
    if (!response.usage.requests) data.runContext.usage.requests += 1;
    throwIfAborted(env.signal);
    const step = await processModelResponse(env, agent, response);
    if (step.type === 'run_again') continue;
    if (await applyStep(env, agent, step)) return;
  }
}

/** Applies a turn's outcome; `true` when the run is over (final output) or paused (interruption). */
async function applyStep<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
  step: NextStep,
): Promise<boolean> {
  const data = env.data;
  switch (step.type) {
    case 'run_again':
    case 'handoff':
      return false;
    case 'interruption':
      data.status = 'interrupted';
      return true;
    case 'final_output': {
      await checkFinalOutput(env, agent, step.output);
      // An immediate cancel (or abort) that arrived while the guardrails or hooks ran wins over completion.
      throwIfAborted(env.signal);
      await emitHook(env, 'agent_done', { agent, context: data.runContext, output: step.output });
      throwIfAborted(env.signal);
      data.finalOutput = step.output;
      data.hasFinalOutput = true;
      data.status = 'completed';
      return true;
    }
  }
}

/** Runs the output guardrails (the agent's, then the run's, each once) on a final output candidate. */
async function checkFinalOutput<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
  output: unknown,
): Promise<void> {
  const data = env.data;
  const guardrails = guardrailsOfCheck(agent.outputGuardrails, env.settings.outputGuardrails);
  if (guardrails.length === 0) return;
  const slots: (OutputGuardrailResult | undefined)[] = [];
  const collected = () => slots.filter((result): result is OutputGuardrailResult => result !== undefined);
  try {
    await runOutputGuardrails(
      guardrails,
      { agent, agentOutput: output, context: data.runContext },
      env.signal,
      slots,
    );
  } catch (error) {
    const results = collected();
    data.outputGuardrailResults.push(...results);
    if (error instanceof TrippedOutputGuardrail)
      throw new OutputGuardrailTripwireTriggered(error.result, results, env.state);
    throw error;
  }
  data.outputGuardrailResults.push(...collected());
}
