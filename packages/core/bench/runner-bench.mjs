// Runner overhead per turn on a zero-latency MockModel. Not a test: run `pnpm bench` (it builds first).
//
// Scenario: every turn the model calls two tools at once; the run loops until a final text. The baseline
// does the same work by hand in the same process: call the mock model directly, run the two tools' execute
// functions, append the items, repeat. The ratio is the price of the Runner's loop (state machine, items,
// hooks, guardrail and approval checks, argument validation, tool timeouts).
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Agent, MODEL_SPECIFICATION_VERSION, Runner, tool } from '@parley/core';
import { z } from 'zod';

// @parley/mock depends on @parley/core, so core cannot depend on it (turbo rejects the cycle); the bench
// loads the mock's built package by path.
const { MockModel } = await import(new URL('../../mock/dist/index.js', import.meta.url).href);

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const TURNS_PER_RUN = 10; // 9 turns with two tool calls each, then a final text
const THROUGHPUT_RUNS = Number(process.env.BENCH_RUNS ?? 500);
const MEMORY_TURNS = 1000;

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const lookup = tool({
  name: 'lookup_order',
  description: 'Looks up an order',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => ({ orderId, status: 'shipped' }),
});
const tools = [add, lookup];
const twoTools = MockModel.turn(
  MockModel.toolCall('add', { a: 2, b: 3 }),
  MockModel.toolCall('lookup_order', { orderId: 'A1' }),
);
const finalText = MockModel.text('All done.');

function script(turns) {
  return [...Array.from({ length: turns - 1 }, () => twoTools), finalText];
}

function newModel(turns) {
  return new MockModel(script(turns), { recordRequests: false });
}

/**
 * The same script for the run-length table, at a cost per call that does not grow with the input:
 * MockModel scans the whole input on every call (call ids, usage estimate), which at 1,000 turns costs
 * several times what the Runner adds per turn and buries its share in the noise of a loaded machine.
 */
class LeanModel {
  specificationVersion = MODEL_SPECIFICATION_VERSION;
  provider = 'bench';
  capabilities = { streaming: false, tools: true, structuredOutput: false, parallelToolCalls: true };
  #turnsLeft;
  #nextCallId = 1;

  constructor(turns) {
    this.#turnsLeft = turns;
  }

  async getResponse() {
    this.#turnsLeft -= 1;
    const output =
      this.#turnsLeft === 0
        ? [{ type: 'message', role: 'assistant', content: 'All done.' }]
        : [
            {
              type: 'function_call',
              callId: `call_${this.#nextCallId++}`,
              name: 'add',
              arguments: '{"a":2,"b":3}',
            },
            {
              type: 'function_call',
              callId: `call_${this.#nextCallId++}`,
              name: 'lookup_order',
              arguments: '{"orderId":"A1"}',
            },
          ];
    return { output, usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 } };
  }

  streamResponse() {
    throw new Error('LeanModel does not stream.');
  }
}

async function runnerRun(turns, stream = false, model = newModel(turns)) {
  const agent = new Agent({ name: 'Bench', instructions: 'Use the tools.', tools, model });
  const runner = new Runner({ maxTurns: Number.POSITIVE_INFINITY });
  if (!stream) return await runner.run(agent, 'go');
  const result = await runner.run(agent, 'go', { stream: true });
  for await (const _event of result) {
    // drain
  }
  await result.completed;
  return result;
}

/**
 * A model response the way a minimal hand-written streaming agent reads it: iterate the model's stream, hand
 * each text delta to the app (here a counter), keep the final response.
 */
let deltasSeen = 0;
async function streamedResponse(model, request) {
  let response;
  for await (const event of model.streamResponse(request, {})) {
    if (event.type === 'text_delta') deltasSeen += event.delta.length;
    else if (event.type === 'response_done') response = event.response;
  }
  return response;
}

/**
 * The same conversation by hand: the model called directly (its `getResponse`, or with `stream` its
 * `streamResponse` read as above), tools executed directly.
 */
async function baselineRun(turns, model = newModel(turns), stream = false) {
  const definitions = tools.map((t) => ({
    type: 'function',
    name: t.name,
    description: t.description,
    parameters: t.jsonSchema,
  }));
  const conversation = [{ type: 'message', role: 'user', content: 'go' }];
  for (;;) {
    const request = {
      systemInstructions: 'Use the tools.',
      input: [...conversation],
      tools: definitions,
      modelSettings: {},
    };
    const response = stream ? await streamedResponse(model, request) : await model.getResponse(request, {});
    conversation.push(...response.output);
    const calls = response.output.filter((item) => item.type === 'function_call');
    if (calls.length === 0) return conversation;
    for (const call of calls) {
      const t = tools.find((candidate) => candidate.name === call.name);
      const value = await t.execute(t.parameters.parse(JSON.parse(call.arguments)), {});
      conversation.push({
        type: 'function_call_output',
        callId: call.callId,
        output: typeof value === 'string' ? value : JSON.stringify(value),
      });
    }
  }
}

async function timeRuns(once, runs = THROUGHPUT_RUNS) {
  gc();
  const started = performance.now();
  for (let i = 0; i < runs; i++) await once();
  return (performance.now() - started) / 1000;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

/**
 * Alternates the scenarios for several rounds (so JIT warm-up favours none; every other round in reverse
 * order) and keeps each one's median, and each round's seconds for the paired ratios below.
 */
async function throughput(scenarios, rounds = ROUNDS) {
  for (const scenario of scenarios) for (let i = 0; i < 200; i++) await scenario.once();
  const samples = scenarios.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = [...scenarios.keys()];
    if (round % 2 === 1) order.reverse();
    for (const index of order) samples[index].push(await timeRuns(scenarios[index].once));
  }
  return scenarios.map((scenario, index) => {
    const sorted = [...samples[index]].sort((a, b) => a - b);
    const seconds = sorted[Math.floor(sorted.length / 2)];
    const turns = THROUGHPUT_RUNS * TURNS_PER_RUN;
    return {
      label: scenario.label,
      turnsPerSecond: turns / seconds,
      microsPerTurn: (seconds * 1e6) / turns,
      perRound: samples[index],
    };
  });
}

/**
 * The ratio of two scenarios round by round (each pair measured next to each other, so a change of the
 * machine's load between rounds cancels out): median, min and max over the rounds.
 */
function pairedRatio(measured, base) {
  const ratios = measured.perRound
    .map((seconds, round) => seconds / base.perRound[round])
    .sort((a, b) => a - b);
  return { median: ratios[Math.floor(ratios.length / 2)], min: ratios[0], max: ratios.at(-1) };
}
const ratioText = ({ median, min, max }) =>
  `${median.toFixed(2)}x (rounds ${min.toFixed(2)}-${max.toFixed(2)})`;

let keptAlive;

/** Full collections across a few event-loop turns, so weakly held and finalizable garbage is gone too. */
async function settledHeap() {
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

async function retainedBytes(once) {
  await once(); // warm up code paths
  keptAlive = undefined;
  const before = await settledHeap();
  keptAlive = await once();
  const after = await settledHeap();
  if (!keptAlive) throw new Error('nothing retained');
  keptAlive = undefined;
  return after - before;
}

const [runner, streamed, baseline, streamedBaseline] = await throughput([
  { label: 'Runner (plain)', once: () => runnerRun(TURNS_PER_RUN) },
  { label: 'Runner (streamed)', once: () => runnerRun(TURNS_PER_RUN, true) },
  { label: 'baseline: mock + tools by hand', once: () => baselineRun(TURNS_PER_RUN) },
  {
    label: 'streaming baseline: mock stream + tools by hand',
    once: () => baselineRun(TURNS_PER_RUN, newModel(TURNS_PER_RUN), true),
  },
]);
if (deltasSeen === 0) throw new Error('the streaming baseline saw no text');
async function medianRetained(once) {
  const samples = [];
  for (let i = 0; i < 3; i++) samples.push(await retainedBytes(once));
  return samples.sort((a, b) => a - b)[1];
}

const runnerMemory = await medianRetained(() => runnerRun(MEMORY_TURNS));
const streamedMemory = await medianRetained(() => runnerRun(MEMORY_TURNS, true));
const baselineMemory = await medianRetained(() => baselineRun(MEMORY_TURNS));

const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
const rows = [
  [runner, runnerMemory],
  [streamed, streamedMemory],
  [baseline, baselineMemory],
  [streamedBaseline, undefined],
].map(([row, memory]) => ({
  scenario: row.label,
  'turns/s': Math.round(row.turnsPerSecond).toLocaleString('en-US'),
  'µs/turn': row.microsPerTurn.toFixed(1),
  'vs baseline': `${(baseline.turnsPerSecond / row.turnsPerSecond).toFixed(2)}x slower`.replace(
    '1.00x slower',
    '1.00x',
  ),
  'heap kept / 1,000 turns': memory === undefined ? '-' : kb(memory),
}));

console.log(
  `Runner overhead, 2-tool loop on a zero-latency MockModel (median of ${ROUNDS} rounds of ${THROUGHPUT_RUNS} runs x ${TURNS_PER_RUN} turns; Node ${process.version})`,
);
console.table(rows);
console.log(
  `Runner overhead per turn: ${(runner.microsPerTurn - baseline.microsPerTurn).toFixed(1)} µs ` +
    `(${(baseline.turnsPerSecond / runner.turnsPerSecond).toFixed(2)}x the baseline); ` +
    `heap kept by a finished 1,000-turn run: ${kb(runnerMemory)} (baseline conversation: ${kb(baselineMemory)}).`,
);
console.log(
  `Paired per round (median, min-max): Runner (plain) vs the baseline ${ratioText(pairedRatio(runner, baseline))}; ` +
    `Runner (streamed) vs the streaming baseline (both read the same mock's stream) ${ratioText(pairedRatio(streamed, streamedBaseline))}; ` +
    `Runner (streamed) vs Runner (plain) ${ratioText(pairedRatio(streamed, runner))}; ` +
    `streaming baseline vs baseline ${ratioText(pairedRatio(streamedBaseline, baseline))}.`,
);

// Cost per turn against run length: 10-turn and 1,000-turn runs on the LeanModel, each against the
// hand-written loop of the same length, alternating for several rounds. Both copy the whole input for every
// call (the model gets an array), so both grow with the run; the Runner's own share (Runner minus baseline,
// per turn) is what must stay flat. Each round gives one figure of each; the medians are reported.
const LONG_TURNS = 1000;
const LONG_RUNS = Math.max(2, Math.round(THROUGHPUT_RUNS / 50));
const SHORT_RUNS = LONG_RUNS * (LONG_TURNS / TURNS_PER_RUN);
const LENGTH_ROUNDS = Number(process.env.BENCH_LENGTH_ROUNDS ?? 9);
async function perTurnByLength(rounds = LENGTH_ROUNDS) {
  const lean = (turns) => () => new LeanModel(turns);
  const scenarios = [
    { key: 'runner10', once: () => runnerRun(TURNS_PER_RUN, false, lean(TURNS_PER_RUN)()), runs: SHORT_RUNS },
    { key: 'base10', once: () => baselineRun(TURNS_PER_RUN, lean(TURNS_PER_RUN)()), runs: SHORT_RUNS },
    { key: 'runner1000', once: () => runnerRun(LONG_TURNS, false, lean(LONG_TURNS)()), runs: LONG_RUNS },
    { key: 'base1000', once: () => baselineRun(LONG_TURNS, lean(LONG_TURNS)()), runs: LONG_RUNS },
  ];
  const turnsOf = {
    runner10: TURNS_PER_RUN,
    base10: TURNS_PER_RUN,
    runner1000: LONG_TURNS,
    base1000: LONG_TURNS,
  };
  for (const scenario of scenarios) await timeRuns(scenario.once, scenario.runs);
  const perRound = [];
  for (let round = 0; round < rounds; round++) {
    const micros = {};
    for (const scenario of scenarios) {
      const seconds = await timeRuns(scenario.once, scenario.runs);
      micros[scenario.key] = (seconds * 1e6) / (scenario.runs * turnsOf[scenario.key]);
    }
    perRound.push({
      ...micros,
      overhead10: micros.runner10 - micros.base10,
      overhead1000: micros.runner1000 - micros.base1000,
      flatness: (micros.runner1000 - micros.base1000) / (micros.runner10 - micros.base10),
    });
  }
  const median = (key) => perRound.map((round) => round[key]).sort((a, b) => a - b)[Math.floor(rounds / 2)];
  return Object.fromEntries(Object.keys(perRound[0]).map((key) => [key, median(key)]));
}

const perTurn = await perTurnByLength();
console.log(
  `\nCost per turn by run length, on a model whose cost per call does not grow with the input (median of ${LENGTH_ROUNDS} rounds; µs per turn):`,
);
console.table([
  {
    'run length': `${TURNS_PER_RUN} turns`,
    Runner: perTurn.runner10.toFixed(1),
    baseline: perTurn.base10.toFixed(1),
    'Runner overhead': perTurn.overhead10.toFixed(1),
    'Runner vs baseline': `${(perTurn.runner10 / perTurn.base10).toFixed(2)}x`,
  },
  {
    'run length': `${LONG_TURNS} turns`,
    Runner: perTurn.runner1000.toFixed(1),
    baseline: perTurn.base1000.toFixed(1),
    'Runner overhead': perTurn.overhead1000.toFixed(1),
    'Runner vs baseline': `${(perTurn.runner1000 / perTurn.base1000).toFixed(2)}x`,
  },
]);
console.log(
  `Runner overhead per turn, ${LONG_TURNS} vs ${TURNS_PER_RUN} turns: ${perTurn.flatness.toFixed(2)}x (median of the rounds' ratios; flat is 1.0).`,
);
