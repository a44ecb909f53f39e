import { Agent, handoff, Runner, systemClock, tool, UnknownOptionError, UserError } from '@parley/core';
import { MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { bothWays } from './both-ways.js';

/** Plain-JavaScript callers have no types to catch a typo: every options object checks its keys. */
const typo = (value: Record<string, unknown>) => value as never;

describe('unknown options are a UserError naming the nearest valid option', () => {
  test('run(): before any model call, streamed or not (and in modelSettings)', async () => {
    await bothWays(async (h) => {
      const model = h.model([MockModel.text('x')]);
      const agent = new Agent({ name: 'A', model });
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ maxTurn: 3 }, /Unknown option 'maxTurn' in RunOptions\. Did you mean 'maxTurns'\?/],
        [{ sesion: {} }, /Did you mean 'session'\?/],
        [
          { modelSettings: { temprature: 0 } },
          /'modelSettings\.temprature'.*Did you mean 'modelSettings\.temperature'\?/,
        ],
        [{ unknownToolBehavior: 'ignore' }, /unknownToolBehavior must be/],
      ];
      for (const [options, message] of cases) {
        const error = await h.run(agent, 'x', typo(options)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(message.source.includes('Unknown') ? UnknownOptionError : Error);
        expect((error as Error).message).toMatch(message);
      }
      expect(model.callCount).toBe(0);
    });
  });

  test('new Runner(), new Agent(), tool(), handoff() and state.reject()', () => {
    expect(() => new Runner(typo({ maxturns: 3 }))).toThrow(/in RunnerConfig\. Did you mean 'maxTurns'\?/);
    expect(() => new Runner(typo({ modelSettings: { topp: 1 } }))).toThrow(
      /Did you mean 'modelSettings\.topP'\?/,
    );
    expect(() => new Agent(typo({ name: 'A', instruction: 'Be brief.' }))).toThrow(
      /Unknown option 'instruction' in AgentOptions\. Did you mean 'instructions'\?/,
    );
    expect(() => new Agent(typo({ name: 'A', toolUseBehaviour: 'stop_on_first_tool' }))).toThrow(
      /Did you mean 'toolUseBehavior'\?/,
    );
    expect(() => new Agent(typo({ name: 'A', modelSettings: { maxTokens: 5 } }))).toThrow(UnknownOptionError);
    const base = { name: 't', description: 'd', parameters: z.object({}), execute: () => 'ok' };
    expect(() => tool(typo({ ...base, timeout: 5 }))).toThrow(/in ToolOptions\. Did you mean 'timeoutMs'\?/);
    expect(() => handoff(new Agent({ name: 'B' }), typo({ toolname: 'x' }))).toThrow(
      /Did you mean 'toolName'\?/,
    );
    expect(
      () => new Agent({ name: 'A', instructions: 'ok', modelSettings: { temperature: 0 } }),
    ).not.toThrow();
    expect(() => new Runner({ maxTurns: 3, clock: undefined })).not.toThrow();
  });

  test('new Runner() with a clock that is not one: a typed error saying what to pass, before any run', () => {
    for (const clock of [{ now: () => 0 }, 'system', null]) {
      const error = (() => {
        try {
          new Runner({ clock: clock as never });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(UserError);
      expect(error).toMatchObject({ code: 'invalid_option' });
      expect((error as Error).message).toMatch(
        /^Runner: clock must implement now\(\), setTimeout\(\) and clearTimeout\(\): pass systemClock/,
      );
    }
    expect(() => new Runner({ clock: systemClock })).not.toThrow();
  });

  test('state.reject() options', async () => {
    const refund = tool({
      name: 'refund',
      description: 'refund',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'done',
    });
    const agent = new Agent({
      name: 'A',
      tools: [refund],
      model: new MockModel([MockModel.toolCall('refund')]),
    });
    const paused = await new Runner().run(agent, 'x');
    const [item] = paused.interruptions;
    expect(() => paused.state.reject(item!, typo({ mesage: 'no' }))).toThrow(/Did you mean 'message'\?/);
  });
});

describe('wrong-typed options are a UserError naming the option and what it takes', () => {
  const expectInvalid = (error: unknown, message: RegExp) => {
    expect(error).toBeInstanceOf(UserError);
    expect(error).toMatchObject({ code: 'invalid_option' });
    expect((error as Error).message).toMatch(message);
  };

  test('run(): signal, stream, session, hooks, model, guardrails — before any model call', async () => {
    const model = new MockModel([MockModel.text('x')]);
    const agent = new Agent({ name: 'A', model });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ signal: 'abort' }, /^run\(\): signal must be an AbortSignal, got a string\.$/],
      [{ stream: 'yes' }, /^run\(\): stream must be true or false, got a string\.$/],
      // A wrong value is described, never echoed (a misplaced string may be a key).
      [{ signal: 'sk-secret-123' }, /^run\(\): signal must be an AbortSignal, got a string\.$/],
      [{ session: {} }, /^run\(\): session must be a Session .*got an object\.$/],
      [{ hooks: () => {} }, /^run\(\): hooks must be a RunHooks, got a function\.$/],
      [{ model: 42 }, /^run\(\): model must be a model name or a Model, got 42\.$/],
      [{ modelProvider: {} }, /^run\(\): modelProvider must be a ModelProvider/],
      [{ inputGuardrails: [{ name: 'x' }] }, /^run\(\): inputGuardrails\[0\] must be a guardrail/],
      [{ outputGuardrails: 'none' }, /^run\(\): outputGuardrails must be an array of guardrails/],
    ];
    for (const [options, message] of cases) {
      const error = await new Runner().run(agent, 'hi', typo(options)).catch((e: unknown) => e);
      expectInvalid(error, message);
    }
    expect(model.callCount).toBe(0);
    expectInvalid(
      (() => {
        try {
          new Runner(typo({ hooks: 'all' }));
        } catch (error) {
          return error;
        }
      })(),
      /^Runner: hooks must be a RunHooks, got a string\.$/,
    );
  });

  test('new Agent(): tools, handoffs, guardrails, instructions, outputType, model', () => {
    const attempt = (options: Record<string, unknown>) => {
      try {
        new Agent(typo({ name: 'A', ...options }));
      } catch (error) {
        return error;
      }
      throw new Error('expected new Agent() to throw');
    };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ tools: 'x' }, /^new Agent\(\): tools must be an array of tools, got a string\.$/],
      [
        { tools: [{}] },
        /^new Agent\(\): tools\[0\] must be a function tool made with tool\(\), got an object\.$/,
      ],
      [{ handoffs: [{ name: 'B' }] }, /^new Agent\(\): handoffs\[0\] must be an Agent or a handoff\(\)/],
      [{ inputGuardrails: [() => true] }, /^new Agent\(\): inputGuardrails\[0\] must be a guardrail/],
      [{ instructions: 7 }, /^new Agent\(\): instructions must be a string or a function/],
      [{ outputType: 'json' }, /^new Agent\(\): outputType must be a zod schema, got a string\.$/],
      [{ model: 42 }, /^new Agent\(\): model must be a model name or a Model, got 42\.$/],
    ];
    for (const [options, message] of cases) expectInvalid(attempt(options), message);
  });

  test('new Agent(): an option an options class offers through a getter is checked like any other', () => {
    class AgentSettings {
      readonly name = 'A';
      get tools(): unknown {
        return 'x';
      }
    }
    let error: unknown;
    try {
      new Agent(new AgentSettings() as never);
    } catch (caught) {
      error = caught;
    }
    expectInvalid(error, /^new Agent\(\): tools must be an array of tools, got a string\.$/);
  });
});
