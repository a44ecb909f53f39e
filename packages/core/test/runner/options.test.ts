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
