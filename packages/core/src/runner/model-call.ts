import { z } from 'zod';
import type { AnyAgent } from '../agent.js';
import { ModelBehaviorError, UserError } from '../errors.js';
import type { InputGuardrailResult } from '../guardrails.js';
import type { JsonSchema, Model, ModelRequest, ModelResponse } from '../model.js';
import { runAllOrAbort } from './concurrency.js';
import { InputGuardrailTripwireTriggered } from './errors.js';
import { inputGuardrailTasks, TrippedInputGuardrail } from './guardrail-runs.js';
import { type LoopEnv, modelInput } from './loop-env.js';

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
      `Agent "${agent.name}": its outputType cannot be expressed as JSON Schema (${cause instanceof Error ? cause.message : String(cause)}). Use plain zod objects, strings, numbers, arrays and enums.`,
      { code: 'output_type_invalid', cause },
    );
  }
  outputSchemas.set(type, schema);
  return schema;
}

/** The request of this turn for `agent`. */
export async function buildRequest<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
): Promise<ModelRequest> {
  const instructions = await agent.getInstructions(env.data.runContext);
  return {
    ...(instructions === undefined ? {} : { systemInstructions: instructions }),
    input: modelInput(env.data),
    tools: agent.toolDefinitions(),
    ...(agent.outputType ? { outputSchema: outputSchemaOf(agent) } : {}),
    modelSettings: { ...agent.modelSettings },
  };
}

/** One model call: `getResponse`, or `streamResponse` with every event passed to the stream. */
export async function callModel<TContext>(
  env: LoopEnv<TContext>,
  model: Model,
  request: ModelRequest,
  signal: AbortSignal,
): Promise<ModelResponse> {
  if (!env.stream) return await model.getResponse(request, { signal });
  let response: ModelResponse | undefined;
  for await (const event of model.streamResponse(request, { signal })) {
    env.emit({ type: 'raw_model_event', data: event });
    if (event.type === 'response_done') response = event.response;
  }
  if (!response)
    throw new ModelBehaviorError(`The ${model.provider} model's stream ended without a response_done event.`);
  return response;
}

/**
 * The first model call of a run, with the starting agent's input guardrails: blocking ones
 * (`runInParallel: false`) finish first; parallel ones overlap the call, and a tripwire (or a guardrail
 * error) cancels the call and the sibling guardrails and awaits them before the run fails.
 */
export async function callModelWithInputGuardrails<TContext>(
  env: LoopEnv<TContext>,
  agent: AnyAgent<TContext>,
  model: Model,
  request: ModelRequest,
): Promise<ModelResponse> {
  const data = env.data;
  const args = { agent, input: data.originalInput, context: data.runContext };
  const blocking = agent.inputGuardrails.filter((guardrail) => guardrail.runInParallel === false);
  const parallel = agent.inputGuardrails.filter((guardrail) => guardrail.runInParallel !== false);
  const record = (results: (InputGuardrailResult | undefined)[]) => {
    for (const result of results) if (result) data.inputGuardrailResults.push(result);
  };
  try {
    if (blocking.length > 0) {
      const results: (InputGuardrailResult | undefined)[] = [];
      try {
        await runAllOrAbort(env.signal, inputGuardrailTasks(blocking, args, results));
      } finally {
        record(results);
      }
    }
    if (parallel.length === 0) return await callModel(env, model, request, env.signal);
    const results: (InputGuardrailResult | undefined)[] = [];
    let response: ModelResponse | undefined;
    try {
      await runAllOrAbort(env.signal, [
        ...inputGuardrailTasks(parallel, args, results),
        async (signal: AbortSignal) => {
          response = await callModel(env, model, request, signal);
        },
      ]);
    } finally {
      record(results);
    }
    return response as ModelResponse;
  } catch (error) {
    if (error instanceof TrippedInputGuardrail)
      throw new InputGuardrailTripwireTriggered(error.result, env.state);
    throw error;
  }
}
