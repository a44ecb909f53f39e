import { z } from 'zod';
import type { AnyAgent } from '../agent.js';
import { ModelBehaviorError, ParleyError, UserError } from '../errors.js';
import type { InputGuardrailResult } from '../guardrails.js';
import { checkHostedTools } from '../hosted-tool.js';
import { errorText, log } from '../logger.js';
import type { JsonSchema, Model, ModelRequest, ModelResponse } from '../model.js';
import { runAllOrAbort } from './concurrency.js';
import { InputGuardrailTripwireTriggered } from './errors.js';
import { guardrailsOfCheck, inputGuardrailTasks, TrippedInputGuardrail } from './guardrail-runs.js';
import { type LoopEnv, modelInput } from './loop-env.js';
import { traceModelCall } from './run-tracing.js';

const outputSchemas = new WeakMap<z.ZodType, JsonSchema>();

function outputSchemaOf<TContext>(agent: AnyAgent<TContext>): JsonSchema {
  const type: z.ZodType = agent.outputType;
  const cached = outputSchemas.get(type);
  if (cached) return cached;
  let schema: JsonSchema;
  try {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(type) as JsonSchema;
    schema = rest;
  } catch (cause) {
    throw new UserError(
      `Agent "${agent.name}": its outputType cannot be expressed as JSON Schema (${errorText(cause)}). Use plain zod objects, strings, numbers, arrays and enums.`,
      { code: 'output_type_invalid', cause },
    );
  }
  outputSchemas.set(type, schema);
  return schema;
}

/**
 * The request of this turn for `agent`. Its hosted tools must be of kinds `model` runs: otherwise it throws
 * `HostedToolUnsupportedError` before anything is sent.
 */
export async function buildRequest<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
  model: Model,
): Promise<ModelRequest> {
  if (agent.hostedTools.length > 0) {
    checkHostedTools(
      agent.hostedTools,
      model.provider,
      model.capabilities?.hostedTools,
      `Agent "${agent.name}"`,
    );
  }
  const instructions =
    typeof agent.instructions === 'function'
      ? await agent.getInstructions(env.data.runContext)
      : agent.instructions;
  const { input, cache } = modelInput(env.data, env.modelInputCache);
  env.modelInputCache = cache;
  const request: ModelRequest = {
    input,
    tools: agent.toolDefinitions(),
    modelSettings: { ...agent.modelSettings, ...env.settings.modelSettings },
  };
  if (agent.hostedTools.length > 0) request.hostedTools = [...agent.hostedTools];
  if (instructions !== undefined) request.systemInstructions = instructions;
  if (agent.outputType) request.outputSchema = outputSchemaOf(agent);
  return request;
}

/** One model call: `getResponse`, or `streamResponse` with every event passed to the stream. */
export async function callModel<TContext>(
  env: LoopEnv<TContext>,
  model: Model,
  request: ModelRequest,
  signal: AbortSignal,
): Promise<ModelResponse> {
  return traceModelCall(env, model, () => modelResponse(env, model, request, signal));
}

async function modelResponse<TContext>(
  env: LoopEnv<TContext>,
  model: Model,
  request: ModelRequest,
  signal: AbortSignal,
): Promise<ModelResponse> {
  try {
    if (!env.stream) return await model.getResponse(request, { signal });
    let response: ModelResponse | undefined;
    for await (const event of model.streamResponse(request, { signal })) {
      env.emit({ type: 'raw_model_event', data: event });
      if (event.type === 'response_done') response = event.response;
    }
    if (!response)
      throw new ModelBehaviorError(
        `The ${model.provider} model's stream ended without a response_done event.`,
      );
    return response;
  } catch (error) {
    if (!signal.aborted) {
      log.error(`The ${model.provider} model call failed: ${errorText(error)}`, {
        event: 'model_call_failed',
        provider: model.provider,
        code: error instanceof ParleyError ? error.code : undefined,
      });
    }
    throw error;
  }
}

/** The starting agent's input guardrails, then the run's (each once). */
function inputGuardrailsOf<TContext>(env: LoopEnv<TContext>, agent: AnyAgent<TContext>) {
  return guardrailsOfCheck(agent.inputGuardrails, env.settings.inputGuardrails);
}

/** Whether this is the run's first model call and input guardrails apply to it. */
export function hasInputGuardrails<TContext>(env: LoopEnv<TContext>, agent: AnyAgent<TContext>): boolean {
  return (
    env.data.currentTurn === 0 &&
    (agent.inputGuardrails.length > 0 || env.settings.inputGuardrails.length > 0)
  );
}

function recordInputResults<TContext>(
  env: LoopEnv<TContext>,
  results: (InputGuardrailResult | undefined)[],
): void {
  for (const result of results) if (result) env.data.inputGuardrailResults.push(result);
}

function tripwireError<TContext>(env: LoopEnv<TContext>, error: unknown): unknown {
  if (!(error instanceof TrippedInputGuardrail)) return error;
  return new InputGuardrailTripwireTriggered(error.result, env.data.inputGuardrailResults, env.state);
}

/**
 * The blocking input guardrails (`runInParallel: false`) of the run's first turn: they all finish before
 * the turn starts, so a trip leaves the turn counter untouched and the model uncalled.
 */
export async function runBlockingInputGuardrails<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
): Promise<void> {
  const blocking = inputGuardrailsOf(env, agent).filter((guardrail) => guardrail.runInParallel === false);
  if (blocking.length === 0) return;
  const data = env.data;
  const args = { agent, input: data.originalInput, context: data.runContext };
  const results: (InputGuardrailResult | undefined)[] = [];
  try {
    await runAllOrAbort(env.signal, inputGuardrailTasks(blocking, args, results));
  } catch (error) {
    recordInputResults(env, results);
    throw tripwireError(env, error);
  }
  recordInputResults(env, results);
}

/**
 * The first model call of a run with the parallel input guardrails: they overlap the call, and a tripwire
 * (or a guardrail error) cancels the call and the sibling guardrails and awaits them before the run fails.
 */
export async function callModelWithInputGuardrails<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
  model: Model,
  request: ModelRequest,
): Promise<ModelResponse> {
  const parallel = inputGuardrailsOf(env, agent).filter((guardrail) => guardrail.runInParallel !== false);
  if (parallel.length === 0) return await callModel(env, model, request, env.signal);
  const data = env.data;
  const args = { agent, input: data.originalInput, context: data.runContext };
  const results: (InputGuardrailResult | undefined)[] = [];
  let response: ModelResponse | undefined;
  try {
    await runAllOrAbort(env.signal, [
      ...inputGuardrailTasks(parallel, args, results),
      async (signal: AbortSignal) => {
        response = await callModel(env, model, request, signal);
      },
    ]);
  } catch (error) {
    recordInputResults(env, results);
    throw tripwireError(env, error);
  }
  recordInputResults(env, results);
  return response as ModelResponse;
}
