import type { AnyAgent } from '../agent.js';
import type { OutputGuardrailResult } from '../guardrails.js';
import { addUsage } from '../usage.js';
import { throwIfAborted } from './concurrency.js';
import { MaxTurnsExceededError, OutputGuardrailTripwireTriggered } from './errors.js';
import { runOutputGuardrails, TrippedOutputGuardrail } from './guardrail-runs.js';
import { emitHook, type LoopEnv } from './loop-env.js';
import { buildRequest, callModel, callModelWithInputGuardrails } from './model-call.js';
import { resolveModel } from './model-resolution.js';
import type { NextStep } from './next-step.js';
import { processModelResponse, resumePendingTurn } from './turn-resolution.js';

/**
 * The turn loop. Each turn makes one model call (counted before it is made), and the response resolves
 * into exactly one {@link NextStep}. A paused turn is resumed first, without a new model call.
 * Returns when the run completes, pauses for approvals, or stops after a turn on request.
 */
export async function runLoop<TContext>(env: LoopEnv<TContext>): Promise<void> {
  const data = env.data;
  env.emit({ type: 'agent_updated', agent: data.currentAgent });
  if (data.status === 'interrupted' && data.pendingTurn) {
    data.status = 'in_progress';
    const step = await resumePendingTurn(env, data.pendingTurn);
    if (await applyStep(env, data.currentAgent, step)) return;
  }
  for (;;) {
    if (env.stopAfterTurn()) return;
    throwIfAborted(env.signal);
    const agent = data.currentAgent;
    if (data.currentTurn >= data.maxTurns) throw new MaxTurnsExceededError(data.maxTurns, env.state);
    const model = await resolveModel(agent, env.models.run, env.models.runner);
    if (!data.currentAgentStarted) {
      data.currentAgentStarted = true;
      await emitHook(env, 'agent_start', { agent, context: data.runContext, turn: data.currentTurn + 1 });
    }
    const request = await buildRequest(env, agent);
    throwIfAborted(env.signal);
    data.currentTurn += 1;
    const response =
      data.currentTurn === 1 && agent.inputGuardrails.length > 0
        ? await callModelWithInputGuardrails(env, agent, model, request)
        : await callModel(env, model, request, env.signal);
    data.modelResponses.push(response);
    addUsage(data.runContext.usage, { ...response.usage, requests: response.usage.requests || 1 });
    throwIfAborted(env.signal);
    const step = await processModelResponse(env, agent, response);
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
      const results: (OutputGuardrailResult | undefined)[] = [];
      try {
        await runOutputGuardrails(
          agent.outputGuardrails,
          { agent, agentOutput: step.output, context: data.runContext },
          env.signal,
          results,
        );
      } catch (error) {
        if (error instanceof TrippedOutputGuardrail)
          throw new OutputGuardrailTripwireTriggered(error.result, env.state);
        throw error;
      } finally {
        for (const result of results) if (result) data.outputGuardrailResults.push(result);
      }
      data.finalOutput = step.output;
      data.hasFinalOutput = true;
      await emitHook(env, 'agent_end', { agent, context: data.runContext, output: step.output });
      data.status = 'completed';
      return true;
    }
  }
}
