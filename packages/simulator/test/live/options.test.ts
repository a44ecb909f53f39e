import { UnknownOptionError, UserError } from '@parley/core';
import { OpenAILiveModel, type OpenAILiveModelOptions } from '@parley/openai';
import { describe, expect, test } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { liveSimulator } from './live-rig.js';

const API_KEY = 'sk-live-secret-0123456789';

function constructError(options: unknown): UserError {
  try {
    new OpenAILiveModel(options as OpenAILiveModelOptions);
  } catch (error) {
    return error as UserError;
  }
  throw new Error('expected the constructor to throw');
}

describe('OpenAILiveModel options', () => {
  test.each([
    [{ apikey: API_KEY }, 'apikey', 'apiKey'],
    [{ apiKey: API_KEY, silenceFrameMS: 20 }, 'silenceFrameMS', 'silenceFrameMs'],
    [{ apiKey: API_KEY, turnGap: 800 }, 'turnGap', 'turnGapMs'],
    [{ apiKey: API_KEY, acknowledgementDelay: 0 }, 'acknowledgementDelay', 'acknowledgementDelayMs'],
    [{ apiKey: API_KEY, websocket: WsWebSocket }, 'websocket', 'WebSocket'],
    [{ apiKey: API_KEY, delegaton: 'client' }, 'delegaton', 'delegation'],
    [
      { apiKey: API_KEY, delegation: 'responses', backend: { model: 'gpt-5.5', instruction: 'Be exact.' } },
      'backend.instruction',
      'backend.instructions',
    ],
    [{ apiKey: API_KEY, input: [{ role: 'user', txt: 'Hi.' }] }, 'input[0].txt', 'input[0].text'],
    [
      {
        apiKey: API_KEY,
        input: [
          { role: 'user', text: 'Hi.' },
          { rol: 'assistant', text: 'Hello.' },
        ],
      },
      'input[1].rol',
      'input[1].role',
    ],
  ])(
    'an unknown option %#: UnknownOptionError naming the nearest key, never the key value',
    (options, typo, nearest) => {
      const error = constructError(options);
      expect(error).toBeInstanceOf(UnknownOptionError);
      expect(error.code).toBe('unknown_option');
      expect(error.message).toBe(
        `Unknown option '${typo}' in OpenAILiveModelOptions. Did you mean '${nearest}'?`,
      );
      expect(error.message).not.toContain(API_KEY);
    },
  );

  test('an unknown option with no near key lists the valid ones', () => {
    const error = constructError({ apiKey: API_KEY, voice: 'marin' });
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect(error.message).toMatch(
      /^Unknown option 'voice' in OpenAILiveModelOptions\. Valid options: .*turnGapMs/,
    );
  });

  const cases: [string, unknown, RegExp][] = [
    ['options that are not an object', 'sk-live', /must be an object/],
    [
      'both key options',
      { apiKey: API_KEY, apiKeyProvider: () => API_KEY },
      /either apiKey or apiKeyProvider/,
    ],
    ['an empty key', { apiKey: '' }, /non-empty/],
    ['a key with a line break', { apiKey: `${API_KEY}\n` }, /line breaks/],
    ['a provider that is not a function', { apiKeyProvider: API_KEY }, /function/],
    [
      'an unknown authHeader',
      { apiKey: API_KEY, authHeader: 'basic' },
      /authHeader must be 'bearer' or 'api-key'/,
    ],
    ['an empty model', { apiKey: API_KEY, model: ' ' }, /model must be a non-empty string/],
    ['an unparsable url', { apiKey: API_KEY, url: 'not a url' }, /valid URL/],
    ['an http url', { apiKey: API_KEY, url: 'https://api.openai.com/v1/live/sessions' }, /wss:/],
    [
      'a model in the url',
      { apiKey: API_KEY, url: 'wss://x/v1/live/sessions?model=gpt-live-1' },
      /query string/,
    ],
    [
      'an unknown delegation',
      { apiKey: API_KEY, delegation: 'server' },
      /delegation must be 'client' or 'responses'/,
    ],
    [
      'responses delegation without a backend',
      { apiKey: API_KEY, delegation: 'responses' },
      /backend: \{ model \}/,
    ],
    [
      'a backend under client delegation',
      { apiKey: API_KEY, backend: { model: 'x' } },
      /only used with delegation/,
    ],
    [
      'backend instructions that are not a string',
      { apiKey: API_KEY, delegation: 'responses', backend: { model: 'gpt-5.5', instructions: 42 } },
      /backend\.instructions must be a string/,
    ],
    [
      'a negative acknowledgement delay',
      { apiKey: API_KEY, acknowledgementDelayMs: -1 },
      /non-negative integer/,
    ],
    ['input that is not an array', { apiKey: API_KEY, input: 'Hi.' }, /input must be an array/],
    [
      'more than 128 input messages',
      { apiKey: API_KEY, input: Array.from({ length: 129 }, () => ({ role: 'user', text: 'Hi.' })) },
      /at most 128 messages/,
    ],
    ['an input message that is not an object', { apiKey: API_KEY, input: ['Hi.'] }, /input\[0\] must be/],
    [
      'a system input message (GPT-Live takes developer, user and assistant)',
      { apiKey: API_KEY, input: [{ role: 'system', text: 'Be brief.' }] },
      /input\[0\]\.role must be 'developer', 'user' or 'assistant'/,
    ],
    [
      'an input message without text',
      { apiKey: API_KEY, input: [{ role: 'user', text: 'Hi.' }, { role: 'assistant' }] },
      /input\[1\]\.text must be a string/,
    ],
    ['headers that are not an object', { apiKey: API_KEY, headers: 'X-A: 1' }, /headers must be an object/],
    ['an Authorization header', { apiKey: API_KEY, headers: { Authorization: 'Bearer x' } }, /Authorization/],
    ['an api-key header', { apiKey: API_KEY, headers: { 'api-key': 'x' } }, /api-key/],
    ['a header with a line break', { apiKey: API_KEY, headers: { 'X-A': 'a\r\nb' } }, /line breaks/],
    ['a WebSocket that is not a constructor', { apiKey: API_KEY, WebSocket: {} }, /constructor/],
    ['a browser socket', { apiKey: API_KEY, webSocketStyle: 'browser' }, /no browser keys/],
    [
      'an unknown socket style',
      { apiKey: API_KEY, webSocketStyle: 'nope' },
      /webSocketStyle must be 'ws' or 'headers-init'/,
    ],
    ['a clock without timers', { apiKey: API_KEY, clock: { now: () => 0 } }, /clock must implement/],
    ['a zero silence frame', { apiKey: API_KEY, silenceFrameMs: 0 }, /silenceFrameMs/],
    ['a fractional turn gap', { apiKey: API_KEY, turnGapMs: 1.5 }, /turnGapMs/],
    ['a zero connect timeout', { apiKey: API_KEY, connectTimeoutMs: 0 }, /connectTimeoutMs/],
    ['a negative close timeout', { apiKey: API_KEY, closeTimeoutMs: -5 }, /closeTimeoutMs/],
  ];

  test.each(cases)('rejects %s with a typed error that says what to do', (_name, options, message) => {
    const error = constructError(options);
    expect(error).toBeInstanceOf(UserError);
    expect(error.code).toBe('invalid_option');
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(API_KEY);
  });

  test('invalid options fail before connecting: nothing reaches the service', async () => {
    const sim = await liveSimulator({ apiKeys: [API_KEY] });
    const url = sim.url;
    for (const options of [
      { apiKey: API_KEY, url, silenceFrameMS: 20 },
      { apiKey: API_KEY, url, input: [{ role: 'system', text: 'Be brief.' }] },
      { apiKey: API_KEY, url, webSocketStyle: 'nope' },
    ]) {
      expect(() => new OpenAILiveModel(options as OpenAILiveModelOptions)).toThrow(UserError);
    }
    expect(sim.upgrades).toEqual([]);
    // The same options, spelled right, do connect.
    const model = new OpenAILiveModel({
      apiKey: API_KEY,
      url,
      silenceFrameMs: 20,
      input: [{ role: 'user', text: 'Hi.' }],
    });
    const connection = await model.connect({ config: {} });
    await connection.close();
    expect(sim.upgrades).toHaveLength(1);
  });
});
