import {
  Agent,
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeCapabilities,
  type RealtimeModel,
  RealtimeSession,
  SessionClosedError,
  SessionNotConnectedError,
  UnknownOptionError,
  UserError,
} from '@parley/core';
import { describe, expect, test } from 'vitest';

const capabilities: RealtimeCapabilities = {
  ephemeralResponse: false,
  messageTruncation: false,
  mutableChatContext: false,
  turnDetection: false,
  userTranscription: false,
  audioOutput: false,
  mutableInstructions: false,
  mutableTools: false,
  autoToolResponseGeneration: false,
  responseRequests: false,
};

/** A model whose connect must never be reached: every case here fails before connecting. */
function unreachableModel(): RealtimeModel & { connectCalls: number } {
  const model = {
    specificationVersion: REALTIME_SPECIFICATION_VERSION,
    provider: 'never',
    capabilities,
    connectCalls: 0,
    connect: async () => {
      model.connectCalls++;
      throw new Error('connect must not be called');
    },
  };
  return model;
}

const agent = new Agent({ name: 'A' });

describe('RealtimeSession options are validated before connecting', () => {
  const cases: [string, () => unknown, RegExp][] = [
    [
      'a non-agent',
      () => new RealtimeSession({} as Agent, { model: unreachableModel() }),
      /must be an Agent/,
    ],
    ['no options', () => new RealtimeSession(agent, undefined as never), /options object/],
    ['no model', () => new RealtimeSession(agent, {} as never), /must be a RealtimeModel/],
    [
      'a model of another specification version',
      () =>
        new RealtimeSession(agent, {
          model: { ...unreachableModel(), specificationVersion: 'parley.realtime.v0' } as never,
        }),
      /implements specification parley\.realtime\.v0.*takes parley\.realtime\.v2 or parley\.realtime\.v1/,
    ],
    [
      'guardrailDebounceChars 0',
      () => new RealtimeSession(agent, { model: unreachableModel(), guardrailDebounceChars: 0 }),
      /guardrailDebounceChars must be a positive integer/,
    ],
    [
      'a fractional guardrailDebounceChars',
      () => new RealtimeSession(agent, { model: unreachableModel(), guardrailDebounceChars: 2.5 }),
      /guardrailDebounceChars/,
    ],
    [
      'a negative toolTimeoutMs',
      () => new RealtimeSession(agent, { model: unreachableModel(), toolTimeoutMs: -1 }),
      /toolTimeoutMs must be a positive number/,
    ],
    [
      'responseTimeoutMs NaN',
      () => new RealtimeSession(agent, { model: unreachableModel(), responseTimeoutMs: Number.NaN }),
      /responseTimeoutMs/,
    ],
    [
      'asyncToolCalls as a string',
      () => new RealtimeSession(agent, { model: unreachableModel(), asyncToolCalls: 'yes' as never }),
      /asyncToolCalls must be true or false/,
    ],
    [
      'a guardrail without execute',
      () =>
        new RealtimeSession(agent, { model: unreachableModel(), outputGuardrails: [{ name: 'g' } as never] }),
      /outputGuardrails/,
    ],
    [
      'a clock without setTimeout',
      () => new RealtimeSession(agent, { model: unreachableModel(), clock: { now: () => 0 } as never }),
      /clock must implement/,
    ],
    [
      'unknown output modalities',
      () =>
        new RealtimeSession(agent, {
          model: unreachableModel(),
          config: { outputModalities: ['video' as never] },
        }),
      /outputModalities/,
    ],
  ];

  test.each(cases)('%s → UserError invalid_session_options', (_name, create, message) => {
    let caught: unknown;
    try {
      create();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UserError);
    expect((caught as UserError).code).toBe('invalid_session_options');
    expect((caught as UserError).message).toMatch(message);
  });

  test.each([
    [
      { toolTimeout: 5 },
      "Unknown option 'toolTimeout' in RealtimeSessionOptions. Did you mean 'toolTimeoutMs'?",
    ],
    [{ config: { vocie: 'alloy' } }, "Did you mean 'config.voice'?"],
    [{ config: { turnDetection: { silenceMs: 300 } } }, "Unknown option 'config.turnDetection.silenceMs'"],
    [
      { config: { inputTranscription: { lang: 'en' } } },
      "Did you mean 'config.inputTranscription.language'?",
    ],
    [{ reconnect: { maxAttempt: 3 } }, "Did you mean 'reconnect.maxAttempts'?"],
  ])('an unknown option %j throws an UnknownOptionError naming the nearest key', (extra, message) => {
    const model = unreachableModel();
    const create = () => new RealtimeSession(agent, { model, ...(extra as object) });
    expect(create).toThrow(UnknownOptionError);
    expect(create).toThrow(expect.objectContaining({ code: 'unknown_option' }));
    expect(create).toThrow(message);
    expect(model.connectCalls).toBe(0);
  });

  test('a misspelt model is named as such, not reported as a missing model', () => {
    expect(() => new RealtimeSession(agent, { modle: unreachableModel() } as never)).toThrow(
      "Unknown option 'modle' in RealtimeSessionOptions. Did you mean 'model'?",
    );
  });

  test('method options with an unknown key throw before anything is sent', async () => {
    const session = new RealtimeSession(agent, { model: unreachableModel() });
    expect(() => session.sendMessage('hi', { respnd: false } as never)).toThrow(
      "Unknown option 'respnd' in sendMessage() options. Did you mean 'respond'?",
    );
    expect(() => session.sendAudio(new Uint8Array(2), { comit: true } as never)).toThrow(
      "Did you mean 'commit'?",
    );
    expect(() => session.commitAudio({ response: true } as never)).toThrow("Did you mean 'respond'?");
    expect(() => session.generateResponse({ addToHistroy: false } as never)).toThrow(
      "Unknown option 'addToHistroy' in generateResponse() options. Did you mean 'addToHistory'?",
    );
    await session.close();
  });

  test('methods before connect() throw SessionNotConnectedError; after close() SessionClosedError', async () => {
    const model = unreachableModel();
    const session = new RealtimeSession(agent, { model });
    expect(session.status).toBe('idle');
    expect(() => session.sendMessage('hi')).toThrow(SessionNotConnectedError);
    expect(() => session.generateResponse()).toThrow(SessionNotConnectedError);
    expect(() => session.interrupt()).toThrow(/not connected.*connect\(\) first/);
    await session.close();
    expect(session.status).toBe('closed');
    expect(() => session.sendMessage('hi')).toThrow(SessionClosedError);
    await expect(session.connect()).rejects.toBeInstanceOf(SessionClosedError);
    expect(model.connectCalls).toBe(0);
  });

  test('sendMessage and sendAudio reject bad input with a UserError', async () => {
    const session = new RealtimeSession(agent, { model: unreachableModel() });
    expect(() => session.sendMessage('' as string)).toThrow(/non-empty string/);
    expect(() => session.sendAudio(new Uint8Array(3))).toThrow(/even number of bytes/);
    await session.close();
  });
});
