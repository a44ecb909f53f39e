/**
 * Runs a scenario twice — once with plain runs, once streamed — and checks that both give the same
 * outcome: final output, items, last agent, usage, guardrail results, interruptions, errors, and what the
 * mock models were sent. Every Runner scenario in these tests goes through it.
 */
import {
  type Agent,
  type RunInput,
  type RunItem,
  Runner,
  type RunOptions,
  type RunResultBase,
  RunState,
  type RunStreamEvent,
} from '@parley/core';
import { MockModel, type MockModelOptions, type MockScriptEntry } from '@parley/mock';
import { expect } from 'vitest';

export type Mode = 'plain' | 'streamed';

// biome-ignore lint/suspicious/noExplicitAny: scenarios use agents of every context and output type
type AnyRunAgent = Agent<any, any>;
// biome-ignore lint/suspicious/noExplicitAny: results of every context and output type
type AnyResult = RunResultBase<any, any>;

export interface Harness {
  readonly mode: Mode;
  /** A MockModel whose requests and aborts are compared across both modes. */
  model(script?: MockScriptEntry[], options?: MockModelOptions): MockModel;
  /** Runs on `runner` (default: a plain Runner) in this harness's mode; streamed runs are drained. */
  run(
    agent: AnyRunAgent,
    // biome-ignore lint/suspicious/noExplicitAny: any context type
    input: RunInput<any>,
    // biome-ignore lint/suspicious/noExplicitAny: any context type
    options?: RunOptions<any>,
    runner?: Runner,
  ): Promise<AnyResult>;
  /** The stream events of the last streamed run (empty in plain mode). */
  readonly events: RunStreamEvent<unknown>[];
}

function itemSnapshot(item: RunItem<unknown>) {
  return {
    type: item.type,
    agent: item.agent.name,
    rawItem: item.rawItem,
    ...(item.type === 'handoff_output_item'
      ? { sourceAgent: item.sourceAgent.name, targetAgent: item.targetAgent.name }
      : {}),
  };
}

function stateSnapshot(state: RunState<unknown>) {
  return {
    status: state.status,
    currentAgent: state.currentAgent.name,
    currentTurn: state.currentTurn,
    maxTurns: state.maxTurns,
    items: state.generatedItems.map(itemSnapshot),
    usage: { ...state.usage },
    inputGuardrailResults: state.inputGuardrailResults,
    outputGuardrailResults: state.outputGuardrailResults,
    toolInputGuardrailResults: state.toolInputGuardrailResults,
    toolOutputGuardrailResults: state.toolOutputGuardrailResults,
    interruptions: state.getInterruptions().map((item) => item.rawItem),
  };
}

/** What must be equal between a plain and a streamed run. */
export function resultSnapshot(result: AnyResult) {
  return {
    finalOutput: result.finalOutput,
    newItems: result.newItems.map(itemSnapshot),
    history: result.history,
    lastAgent: result.lastAgent.name,
    usage: result.usage,
    interruptions: result.interruptions.map((item) => item.rawItem),
    inputGuardrailResults: result.inputGuardrailResults,
    outputGuardrailResults: result.outputGuardrailResults,
    toolInputGuardrailResults: result.toolInputGuardrailResults,
    toolOutputGuardrailResults: result.toolOutputGuardrailResults,
    rawResponses: result.rawResponses.map((response) => ({ output: response.output, usage: response.usage })),
    state: stateSnapshot(result.state),
  };
}

function errorSnapshot(error: unknown) {
  if (!(error instanceof Error)) return { thrown: error };
  const withState = error as Error & { code?: string; state?: RunState<unknown> };
  return {
    name: error.name,
    code: withState.code,
    message: error.message,
    state: withState.state ? stateSnapshot(withState.state) : undefined,
  };
}

async function drain(
  result: AnyResult & AsyncIterable<RunStreamEvent<unknown>>,
  events: RunStreamEvent<unknown>[],
) {
  let iterationError: { error: unknown } | undefined;
  try {
    for await (const event of result) events.push(event);
  } catch (error) {
    iterationError = { error };
  }
  const completion = await (result as unknown as { completed: Promise<void> }).completed.then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  // The iteration and `completed` report the same terminal outcome.
  expect(completion?.error).toBe(iterationError?.error);
  return iterationError;
}

function checkEventsMatchItems(events: RunStreamEvent<unknown>[], result: AnyResult, itemsBefore: number) {
  const emitted = events.filter((event) => event.type === 'run_item').map((event) => event.item);
  expect(emitted).toEqual(result.state.generatedItems.slice(itemsBefore));
  const updates = events.filter((event) => event.type === 'agent_updated');
  expect(updates.at(-1)?.agent).toBe(result.state.currentAgent);
  const text = events
    .filter((event) => event.type === 'raw_model_event' && event.data.type === 'text_delta')
    .map((event) =>
      event.type === 'raw_model_event' && event.data.type === 'text_delta' ? event.data.delta : '',
    )
    .join('');
  const doneText = events
    .flatMap((event) =>
      event.type === 'raw_model_event' && event.data.type === 'response_done'
        ? event.data.response.output
        : [],
    )
    .map((item) => (item.type === 'message' ? item.content : ''))
    .join('');
  expect(text).toBe(doneText);
}

function makeHarness(mode: Mode, log: unknown[], models: MockModel[]): Harness {
  const events: RunStreamEvent<unknown>[] = [];
  return {
    mode,
    events,
    model(script = [], options = {}) {
      const model = new MockModel(script, options);
      models.push(model);
      return model;
    },
    async run(agent, input, options = {}, runner = new Runner()) {
      const itemsBefore = input instanceof RunState ? input.generatedItems.length : 0;
      if (mode === 'plain') {
        try {
          const result = await runner.run(agent, input, { ...options, stream: false });
          log.push(resultSnapshot(result));
          return result;
        } catch (error) {
          log.push(errorSnapshot(error));
          throw error;
        }
      }
      events.length = 0;
      let result: Awaited<ReturnType<typeof runner.run>>;
      try {
        result = await runner.run(agent, input, { ...options, stream: true });
      } catch (error) {
        log.push(errorSnapshot(error));
        throw error;
      }
      const failure = await drain(result as AnyResult & AsyncIterable<RunStreamEvent<unknown>>, events);
      if (failure) {
        log.push(errorSnapshot(failure.error));
        throw failure.error;
      }
      checkEventsMatchItems(events, result, itemsBefore);
      log.push(resultSnapshot(result));
      return result;
    },
  };
}

function modelSnapshot(model: MockModel) {
  return {
    requests: model.requests,
    abortedCalls: model.abortedCalls,
    callCount: model.callCount,
    remaining: model.remaining,
  };
}

/**
 * Plays `scenario` plain, then streamed, and asserts both produced equal outcomes (and sent the mock
 * models equal requests). Assertions inside the scenario run in both modes. Returns both return values.
 */
export async function bothWays<T>(scenario: (h: Harness) => Promise<T>): Promise<{ plain: T; streamed: T }> {
  const plainLog: unknown[] = [];
  const plainModels: MockModel[] = [];
  const plain = await scenario(makeHarness('plain', plainLog, plainModels));
  const streamedLog: unknown[] = [];
  const streamedModels: MockModel[] = [];
  const streamed = await scenario(makeHarness('streamed', streamedLog, streamedModels));
  expect(streamedLog).toEqual(plainLog);
  expect(streamedModels.map(modelSnapshot)).toEqual(plainModels.map(modelSnapshot));
  for (const model of plainModels) expect(model.calls.every((call) => !call.streamed)).toBe(true);
  for (const model of streamedModels) expect(model.calls.every((call) => call.streamed)).toBe(true);
  expect(plainLog.length).toBeGreaterThan(0);
  return { plain, streamed };
}
