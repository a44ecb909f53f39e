import {
  Agent,
  configureLogging,
  type LogSink,
  RealtimeSession,
  run,
  tool,
  UnknownOptionError,
  UserError,
} from '@parley/core';
import { flushMicrotasks, MockModel, MockRealtimeModel } from '@parley/mock';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';

type Line = { level: keyof LogSink; args: unknown[] };

function recordingSink(): LogSink & { lines: Line[] } {
  const lines: Line[] = [];
  const at =
    (level: keyof LogSink) =>
    (...args: unknown[]) =>
      lines.push({ level, args });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const SECRET_ARGUMENT = 'card-4111-1111-1111-1111';

function failingToolRun() {
  const charge = tool({
    name: 'charge_card',
    description: 'Charge a card',
    parameters: z.object({ card: z.string() }),
    execute: () => {
      throw new Error('payment backend unreachable');
    },
  });
  const model = new MockModel([
    MockModel.toolCall('charge_card', { card: SECRET_ARGUMENT }, { callId: 'call_9' }),
    MockModel.text('Sorry, that did not work.'),
  ]);
  return run(new Agent({ name: 'Billing', model, tools: [charge] }), `Charge ${SECRET_ARGUMENT}`);
}

const savedEnv = process.env.PARLEY_LOG;
afterEach(() => {
  if (savedEnv === undefined) delete process.env.PARLEY_LOG;
  else process.env.PARLEY_LOG = savedEnv;
  configureLogging();
});

describe('logging', () => {
  test('warns by default: a tool that threw is logged at warn, with no debug or info lines', async () => {
    delete process.env.PARLEY_LOG;
    const sink = recordingSink();
    configureLogging({ sink });
    await failingToolRun();
    expect(sink.lines.map((line) => [line.level, line.args[0]])).toEqual([
      ['warn', '[parley] Tool "charge_card" failed; the model gets an error output instead of a result.'],
    ]);
  });

  test('PARLEY_LOG=silent (or level: silent) logs nothing', async () => {
    process.env.PARLEY_LOG = 'silent';
    const sink = recordingSink();
    configureLogging({ sink });
    await failingToolRun();
    configureLogging({ sink, level: 'silent' });
    await failingToolRun();
    expect(sink.lines).toEqual([]);
  });

  test('PARLEY_LOG=debug turns it on: a tool that throws is logged with where it happened, not its arguments', async () => {
    process.env.PARLEY_LOG = 'debug';
    const sink = recordingSink();
    configureLogging({ sink });
    const result = await failingToolRun();
    expect(result.finalOutput).toBe('Sorry, that did not work.');
    expect(sink.lines).toEqual([
      {
        level: 'warn',
        args: [
          '[parley] Tool "charge_card" failed; the model gets an error output instead of a result.',
          expect.objectContaining({
            event: 'tool_failed',
            tool: 'charge_card',
            callId: 'call_9',
            agent: 'Billing',
            error: 'payment backend unreachable',
          }),
        ],
      },
    ]);
    expect(JSON.stringify(sink.lines)).not.toContain(SECRET_ARGUMENT);
  });

  test('a level filters: error keeps the failed model call and drops the tool warning', async () => {
    const sink = recordingSink();
    configureLogging({ sink, level: 'error' });
    await failingToolRun();
    expect(sink.lines).toEqual([]);
    const model = new MockModel([MockModel.error(new UserError('quota exceeded', { code: 'rate_limited' }))]);
    await expect(run(new Agent({ name: 'A', model }), 'hi')).rejects.toThrow('quota exceeded');
    expect(sink.lines).toEqual([
      {
        level: 'error',
        args: [
          '[parley] The mock model call failed: quota exceeded',
          { event: 'model_call_failed', provider: 'mock', code: 'rate_limited' },
        ],
      },
    ]);
  });

  test('a provider error in a realtime session is logged, pino style: fields first', async () => {
    const sink = recordingSink();
    configureLogging({ sink, level: 'info', style: 'pino' });
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(new Agent({ name: 'Voice' }), { model });
    await session.connect();
    model.connection.emitError({ code: 'server_error', message: 'The server had an error.' });
    await flushMicrotasks();
    expect(sink.lines).toEqual([
      {
        level: 'error',
        args: [
          { lib: 'parley', event: 'provider_error', code: 'server_error' },
          'The realtime provider reported an error: The server had an error.',
        ],
      },
    ]);
    await session.close();
  });

  test('bad logging options are refused with what to pass', () => {
    expect(() => configureLogging({ levl: 'debug' } as never)).toThrow(UnknownOptionError);
    expect(() => configureLogging({ level: 'verbose' as never })).toThrow(/must be 'debug', 'info'/);
    expect(() => configureLogging({ sink: { log: () => {} } as never })).toThrow(
      /debug, info, warn and error/,
    );
  });
});
