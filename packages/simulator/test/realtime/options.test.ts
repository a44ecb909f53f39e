import { UnknownOptionError, UserError } from '@parley/core';
import { OpenAIRealtimeModel, type OpenAIRealtimeModelOptions } from '@parley/openai';
import { describe, expect, test } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { API_KEY, simulator } from './helpers.js';

function constructError(options: OpenAIRealtimeModelOptions): UserError {
  try {
    new OpenAIRealtimeModel(options);
  } catch (error) {
    return error as UserError;
  }
  throw new Error('expected the constructor to throw');
}

describe('OpenAIRealtimeModel options', () => {
  test.each([
    [{ apikey: API_KEY }, 'apikey', 'apiKey'],
    [{ apiKey: API_KEY, connectTimeout: 5 }, 'connectTimeout', 'connectTimeoutMs'],
    [{ apiKey: API_KEY, websocket: WsWebSocket }, 'websocket', 'WebSocket'],
    [{ apiKey: API_KEY, keepalive: { interval: 5 } }, 'keepalive.interval', 'keepalive.intervalMs'],
  ])(
    'an unknown option %#: UnknownOptionError naming the nearest key, never the key value',
    (options, typo, nearest) => {
      const error = constructError(options as OpenAIRealtimeModelOptions);
      expect(error).toBeInstanceOf(UnknownOptionError);
      expect(error.code).toBe('unknown_option');
      expect(error.message).toBe(
        `Unknown option '${typo}' in OpenAIRealtimeModelOptions. Did you mean '${nearest}'?`,
      );
      expect(error.message).not.toContain(API_KEY);
    },
  );

  const cases: [string, OpenAIRealtimeModelOptions, RegExp][] = [
    [
      'both key options',
      { apiKey: API_KEY, apiKeyProvider: () => API_KEY },
      /either apiKey or apiKeyProvider/,
    ],
    ['an empty key', { apiKey: '' }, /non-empty/],
    ['a key with a line break', { apiKey: `${API_KEY}\n` }, /line breaks/],
    ['a provider that is not a function', { apiKeyProvider: 'x' as never }, /function/],
    ['an empty model', { apiKey: API_KEY, model: ' ' }, /model/],
    ['an unparsable url', { apiKey: API_KEY, url: 'not a url' }, /valid URL/],
    ['an http url', { apiKey: API_KEY, url: 'https://api.openai.com/v1/realtime' }, /wss:/],
    [
      'a key in the url',
      { apiKey: API_KEY, url: 'wss://example.com/v1/realtime?api-key=abc' },
      /credentials/,
    ],
    ['an Authorization header', { apiKey: API_KEY, headers: { Authorization: 'Bearer x' } }, /Authorization/],
    ['a beta header', { apiKey: API_KEY, headers: { 'OpenAI-Beta': 'realtime=v1' } }, /OpenAI-Beta/],
    ['a header with a line break', { apiKey: API_KEY, headers: { 'X-A': 'a\r\nb' } }, /line breaks/],
    ['a WebSocket that is not a constructor', { apiKey: API_KEY, WebSocket: {} as never }, /constructor/],
    ['an unknown socket style', { apiKey: API_KEY, webSocketStyle: 'nope' as never }, /webSocketStyle/],
    ['a sessionConfig type', { apiKey: API_KEY, sessionConfig: { type: 'transcription' } as never }, /type/],
    ['a zero connect timeout', { apiKey: API_KEY, connectTimeoutMs: 0 }, /connectTimeoutMs/],
    ['a fractional close timeout', { apiKey: API_KEY, closeTimeoutMs: 1.5 }, /closeTimeoutMs/],
    [
      'a clock without timers',
      { apiKey: API_KEY, clock: { now: () => 0 } as never },
      /clock must implement now\(\), setTimeout\(\) and clearTimeout\(\): pass systemClock/,
    ],
    ['a clock that is not an object', { apiKey: API_KEY, clock: 'system' as never }, /clock must implement/],
    [
      'keepalive: true',
      { apiKey: API_KEY, keepalive: true as never },
      /keepalive must be \{ intervalMs, timeoutMs \} or false/,
    ],
    ['a zero keepalive interval', { apiKey: API_KEY, keepalive: { intervalMs: 0 } }, /keepalive\.intervalMs/],
    [
      'a fractional keepalive timeout',
      { apiKey: API_KEY, keepalive: { timeoutMs: 2.5 } },
      /keepalive\.timeoutMs/,
    ],
    [
      'a standard key in a browser socket',
      { apiKey: API_KEY, WebSocket: WsWebSocket, webSocketStyle: 'browser' },
      /ephemeral "ek_" key/,
    ],
    [
      'a custom header in a browser socket',
      { apiKey: 'ek_1', WebSocket: WsWebSocket, webSocketStyle: 'browser', headers: { 'X-Trace': '1' } },
      /cannot send the header "X-Trace"/,
    ],
  ];

  test.each(cases)('rejects %s with a typed error that says what to do', (_name, options, message) => {
    const error = constructError(options);
    expect(error).toBeInstanceOf(UserError);
    expect(error.code).toBe('invalid_option');
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(API_KEY);
  });

  test('without any key (and no OPENAI_API_KEY) the constructor says where a key comes from', () => {
    const previous = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(constructError({}).message).toMatch(/apiKey, apiKeyProvider, or set the OPENAI_API_KEY/);
    } finally {
      if (previous !== undefined) process.env.OPENAI_API_KEY = previous;
    }
  });

  test('a provider returning an unusable key fails connect() before any socket opens', async () => {
    const sim = await simulator();
    const model = new OpenAIRealtimeModel({ url: sim.url, apiKeyProvider: () => `${API_KEY} ` });
    const error = await model.connect({ config: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'realtime_api_key_unavailable' });
    expect(String((error as Error).message)).not.toContain(API_KEY);
    const thrower = new OpenAIRealtimeModel({
      url: sim.url,
      apiKeyProvider: () => {
        throw new Error('vault down');
      },
    });
    await expect(thrower.connect({ config: {} })).rejects.toMatchObject({
      code: 'realtime_api_key_unavailable',
    });
    const browser = new OpenAIRealtimeModel({
      url: sim.url,
      apiKeyProvider: () => API_KEY,
      WebSocket: WsWebSocket,
      webSocketStyle: 'browser',
    });
    await expect(browser.connect({ config: {} })).rejects.toMatchObject({ code: 'invalid_option' });
    expect(sim.upgrades).toEqual([]);
  });
});
