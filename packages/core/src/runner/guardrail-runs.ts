import type { AnyAgent } from '../agent.js';
import type { RunContext } from '../context.js';
import type {
  GuardrailFunctionOutput,
  InputGuardrail,
  InputGuardrailResult,
  OutputGuardrail,
  OutputGuardrailResult,
} from '../guardrails.js';
import type { ConversationItem } from '../items.js';
import { runAllOrAbort, type SignalTask } from './concurrency.js';
import { GuardrailExecutionError } from './errors.js';
import { traceGuardrail } from './run-tracing.js';

/** Thrown inside a guardrail task to stop its siblings; carries the result that tripped. */
export class TrippedInputGuardrail {
  constructor(readonly result: InputGuardrailResult) {}
}

/** Thrown inside an output guardrail task to stop its siblings; carries the result that tripped. */
export class TrippedOutputGuardrail {
  constructor(readonly result: OutputGuardrailResult) {}
}

/**
 * The guardrails of one check: the agent's, then the run's (Runner's and run()'s), each object once — the
 * same guardrail given in several places runs once.
 */
export function guardrailsOfCheck<G>(agentGuardrails: readonly G[], runGuardrails: readonly G[]): G[] {
  return [...new Set([...agentGuardrails, ...runGuardrails])];
}

/** Runs one guardrail; a throw that is not the run's own abort becomes a {@link GuardrailExecutionError}. */
function executeGuardrail(
  context: RunContext<unknown>,
  name: string,
  kind: 'input' | 'output',
  signal: AbortSignal,
  execute: () => GuardrailFunctionOutput | Promise<GuardrailFunctionOutput>,
): Promise<GuardrailFunctionOutput> {
  return traceGuardrail(context, name, kind, async () => {
    try {
      return await execute();
    } catch (error) {
      if (signal.aborted) throw error;
      throw new GuardrailExecutionError(name, kind, error);
    }
  });
}

/**
 * Tasks running each input guardrail. Results land in `results` in guardrail order; a tripwire throws
 * {@link TrippedInputGuardrail} so the caller's {@link runAllOrAbort} cancels and awaits the rest.
 */
export function inputGuardrailTasks<TContext>(
  guardrails: readonly InputGuardrail<TContext>[],
  args: { agent: AnyAgent<TContext>; input: string | ConversationItem[]; context: RunContext<TContext> },
  results: (InputGuardrailResult | undefined)[],
): SignalTask<void>[] {
  return guardrails.map((guardrail, index) => async (signal) => {
    const output = await executeGuardrail(args.context, guardrail.name, 'input', signal, () =>
      guardrail.execute({ ...args, signal }),
    );
    const result: InputGuardrailResult = { guardrail: { name: guardrail.name }, output };
    results[index] = result;
    if (output.tripwireTriggered) throw new TrippedInputGuardrail(result);
  });
}

/** Runs all output guardrails on a final output; resolves with their results or throws the first trip. */
export async function runOutputGuardrails<TContext>(
  guardrails: readonly OutputGuardrail<TContext>[],
  args: { agent: AnyAgent<TContext>; agentOutput: unknown; context: RunContext<TContext> },
  signal: AbortSignal,
  results: (OutputGuardrailResult | undefined)[],
): Promise<void> {
  await runAllOrAbort(
    signal,
    guardrails.map((guardrail, index) => async (taskSignal: AbortSignal) => {
      const output = await executeGuardrail(args.context, guardrail.name, 'output', taskSignal, () =>
        guardrail.execute({ ...args, signal: taskSignal }),
      );
      const result: OutputGuardrailResult = {
        guardrail: { name: guardrail.name },
        agentName: args.agent.name,
        agentOutput: args.agentOutput,
        output,
      };
      results[index] = result;
      if (output.tripwireTriggered) throw new TrippedOutputGuardrail(result);
    }),
  );
}
