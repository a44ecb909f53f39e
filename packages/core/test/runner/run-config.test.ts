import {
  Agent,
  GuardrailExecutionError,
  type InputGuardrail,
  InputGuardrailTripwireTriggered,
  MODEL_SPECIFICATION_VERSION,
  type Model,
  ModelBehaviorError,
  type OutputGuardrail,
  OutputGuardrailTripwireTriggered,
  REALTIME_SPECIFICATION_VERSION,
  Runner,
  type ToolErrorFormatterArgs,
  tool,
  UserError,
} from '@parley/core';
import { MockModel, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { bothWays } from './both-ways.js';

function inputCheck(name: string, trip = false, runInParallel?: boolean): InputGuardrail {
  return {
    name,
    ...(runInParallel === undefined ? {} : { runInParallel }),
    execute: () => ({ tripwireTriggered: trip, outputInfo: { by: name } }),
  };
}

function outputCheck(name: string, trip = false): OutputGuardrail {
  return { name, execute: () => ({ tripwireTriggered: trip, outputInfo: { by: name } }) };
}

describe('run-level guardrails', () => {
  test("merge with the agent's (agent, Runner, run), run once, and are reported the same way", async () => {
    await bothWays(async (h) => {
      const runner = new Runner({
        inputGuardrails: [inputCheck('runner_in')],
        outputGuardrails: [outputCheck('runner_out')],
      });
      const agent = new Agent({
        name: 'A',
        inputGuardrails: [inputCheck('agent_in')],
        outputGuardrails: [outputCheck('agent_out')],
        model: h.model([MockModel.text('fine')]),
      });
      const result = await h.run(
        agent,
        'hi',
        { inputGuardrails: [inputCheck('run_in', false, false)], outputGuardrails: [outputCheck('run_out')] },
        runner,
      );
      expect(result.finalOutput).toBe('fine');
      // The blocking one finishes before the parallel ones start.
      expect(result.inputGuardrailResults.map((r) => r.guardrail.name)).toEqual([
        'run_in',
        'agent_in',
        'runner_in',
      ]);
      expect(result.outputGuardrailResults.map((r) => r.guardrail.name)).toEqual([
        'agent_out',
        'runner_out',
        'run_out',
      ]);
      expect(result.outputGuardrailResults[2]).toMatchObject({ agentName: 'A', agentOutput: 'fine' });
    });
  });

  test('a run-level input guardrail trips like the agent one; the error carries every result of the check', async () => {
    await bothWays(async (h) => {
      const model = h.model([MockModel.text('never')]);
      const agent = new Agent({ name: 'A', inputGuardrails: [inputCheck('agent_ok', false, false)], model });
      const error = await h
        .run(agent, 'hi', {
          inputGuardrails: [inputCheck('run_ok', false, false), inputCheck('run_trip', true, false)],
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
      const tripped = error as InputGuardrailTripwireTriggered;
      expect(tripped.result.guardrail.name).toBe('run_trip');
      expect(tripped.results.map((r) => [r.guardrail.name, r.output.tripwireTriggered])).toEqual([
        ['agent_ok', false],
        ['run_ok', false],
        ['run_trip', true],
      ]);
      expect(model.callCount).toBe(0);
    });
  });

  test('a run-level output guardrail trips; the error carries every result of that check', async () => {
    await bothWays(async (h) => {
      const agent = new Agent({
        name: 'A',
        outputGuardrails: [outputCheck('agent_ok')],
        model: h.model([MockModel.text('secret')]),
      });
      const error = await h
        .run(agent, 'hi', { outputGuardrails: [outputCheck('run_trip', true)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      const tripped = error as OutputGuardrailTripwireTriggered;
      expect(tripped.result.guardrail.name).toBe('run_trip');
      expect(tripped.results.map((r) => r.guardrail.name).sort()).toEqual(['agent_ok', 'run_trip']);
      expect(tripped.state.outputGuardrailResults).toHaveLength(2);
    });
  });
});

describe('toolErrorFormatter', () => {
  test('sets the text the model sees for a failed tool and a rejected call; explicit texts still win', async () => {
    await bothWays(async (h) => {
      const seen: Omit<ToolErrorFormatterArgs, 'context'>[] = [];
      const toolErrorFormatter = ({ context: _context, ...args }: ToolErrorFormatterArgs) => {
        seen.push(args);
        if (args.toolName === 'keep_default') return undefined;
        return `[${args.kind}] ${args.toolName} (${args.callId})`;
      };
      const failing = (name: string, errorFunction?: () => string) =>
        tool({
          name,
          description: name,
          parameters: z.object({}),
          execute: () => {
            throw new Error('boom');
          },
          ...(errorFunction ? { errorFunction } : {}),
        });
      const guarded = tool({
        name: 'guarded',
        description: 'needs approval',
        parameters: z.object({ n: z.number() }),
        needsApproval: true,
        execute: () => 'ran',
      });
      const model = h.model([
        MockModel.turn(
          MockModel.toolCall('plain_fail', {}, { callId: 'f1' }),
          MockModel.toolCall('own_text', {}, { callId: 'f2' }),
          MockModel.toolCall('keep_default', {}, { callId: 'f3' }),
          MockModel.toolCall('guarded', { n: 1 }, { callId: 'g1' }),
          MockModel.toolCall('guarded', { n: 2 }, { callId: 'g2' }),
        ),
        MockModel.text('ok'),
      ]);
      const agent = new Agent({
        name: 'A',
        tools: [
          failing('plain_fail'),
          failing('own_text', () => 'own words'),
          failing('keep_default'),
          guarded,
        ],
        model,
      });
      const paused = await h.run(agent, 'go', { toolErrorFormatter });
      const state = paused.state;
      const [first, second] = state.getInterruptions();
      state.reject(first!);
      state.reject(second!, { message: 'explicit no' });
      await h.run(agent, state, { toolErrorFormatter });
      const outputs = Object.fromEntries(
        model.requests[1]!.input.flatMap((item) =>
          item.type === 'function_call_output' ? [[item.callId, item.output]] : [],
        ),
      );
      expect(outputs).toEqual({
        f1: '[execution_failed] plain_fail (f1)',
        f2: 'own words',
        f3: 'An error occurred while running the tool. Please try again.',
        g1: '[approval_rejected] guarded (g1)',
        g2: 'explicit no',
      });
      expect(seen.find((args) => args.callId === 'f1')).toMatchObject({
        kind: 'execution_failed',
        error: new Error('boom'),
        defaultMessage: 'An error occurred while running the tool. Please try again.',
      });
      expect(seen.find((args) => args.callId === 'g1')).toMatchObject({
        kind: 'approval_rejected',
        defaultMessage: 'The user rejected this call to "guarded"; it did not run.',
      });
      expect(seen.map((args) => args.callId).sort()).toEqual(['f1', 'f3', 'g1']);
    });
  });
});

describe('modelSettings and model overrides', () => {
  test("the Runner's and the run's modelSettings are laid over the agent's, field by field", async () => {
    await bothWays(async (h) => {
      const model = h.model([MockModel.text('a'), MockModel.text('b')]);
      const agent = new Agent({
        name: 'A',
        model,
        modelSettings: { temperature: 0.2, maxOutputTokens: 100 },
      });
      const runner = new Runner({ modelSettings: { temperature: 0.5, topP: 0.9 } });
      await h.run(agent, 'x', { modelSettings: { maxOutputTokens: 5, topP: undefined } }, runner);
      await h.run(agent, 'x');
      expect(model.requests[0]?.modelSettings).toEqual({ temperature: 0.5, topP: 0.9, maxOutputTokens: 5 });
      expect(model.requests[1]?.modelSettings).toEqual({ temperature: 0.2, maxOutputTokens: 100 });
    });
  });

  test('the run model overrides every agent of the run, handoff targets included', async () => {
    await bothWays(async (h) => {
      const override = h.model([MockModel.handoff('Billing'), MockModel.text('from override')]);
      const billing = new Agent({ name: 'Billing', model: h.model() });
      const triage = new Agent({ name: 'Triage', handoffs: [billing], model: h.model() });
      const result = await h.run(triage, 'x', { model: override });
      expect(result.finalOutput).toBe('from override');
      expect(override.callCount).toBe(2);
    });
  });
});

describe('the model is checked when the run starts', () => {
  const textModel = (overrides: Partial<Record<keyof Model, unknown>>): Model =>
    ({
      specificationVersion: MODEL_SPECIFICATION_VERSION,
      provider: 'custom',
      capabilities: { streaming: false, tools: true, structuredOutput: false, parallelToolCalls: false },
      getResponse: async () => ({
        output: [{ type: 'message', role: 'assistant', content: 'hi' }],
        usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      }),
      ...overrides,
    }) as Model;

  test('a wrong specificationVersion, or a realtime model, is a UserError saying what to do', async () => {
    await bothWays(async (h) => {
      const old = textModel({ specificationVersion: 'parley.model.v0' });
      await expect(h.run(new Agent({ name: 'A', model: old }), 'x')).rejects.toThrow(
        expect.objectContaining({
          code: 'invalid_model',
          message: expect.stringMatching(/"parley\.model\.v0".*parley\.model\.v1/),
        }),
      );
      const realtime = new MockRealtimeModel();
      expect(realtime.specificationVersion).toBe(REALTIME_SPECIFICATION_VERSION);
      const error = await h
        .run(new Agent({ name: 'A' }), 'x', { model: realtime as unknown as Model })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      expect((error as Error).message).toMatch(/realtime model: run it with new RealtimeSession/);
    });
  });

  test('a streamed run on a model without streamResponse is a UserError; a plain run works', async () => {
    const noStream = textModel({});
    const agent = new Agent({ name: 'A', model: noStream });
    const result = await new Runner().run(agent, 'x', { stream: true });
    await expect(result.completed).rejects.toThrow(
      expect.objectContaining({ code: 'invalid_model', message: expect.stringMatching(/cannot stream/) }),
    );
    expect((await new Runner().run(agent, 'x')).finalOutput).toBe('hi');
  });
});

describe('a guardrail that throws', () => {
  test('an output guardrail (agent or run level) that throws is a GuardrailExecutionError, not a model error', async () => {
    await bothWays(async (h) => {
      const broken: OutputGuardrail = {
        name: 'broken_output',
        execute: () => {
          throw new TypeError('classifier crashed');
        },
      };
      const agent = new Agent({ name: 'A', model: h.model([MockModel.text('x'), MockModel.text('y')]) });
      for (const options of [{ outputGuardrails: [broken] }, {}]) {
        const target = options.outputGuardrails ? agent : agent.clone({ outputGuardrails: [broken] });
        const error = await h.run(target, 'hi', options).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(GuardrailExecutionError);
        expect(error).not.toBeInstanceOf(ModelBehaviorError);
        expect(error).toMatchObject({
          code: 'guardrail_execution_error',
          guardrailName: 'broken_output',
          kind: 'output',
          cause: new TypeError('classifier crashed'),
        });
      }
    });
  });
});
