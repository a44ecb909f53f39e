import { UnknownOptionError, UserError } from '@parley/core';
import { OpenAIProvider, OpenAIResponsesModel, type OpenAIResponsesModelOptions } from '@parley/openai';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  API_KEY,
  BASE_URL,
  messageOutput,
  responseObject,
  script,
  useMockServer,
  userRequest,
} from './helpers.js';

const server = useMockServer();

let savedEnvKey: string | undefined;
beforeEach(() => {
  savedEnvKey = process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_API_KEY;
});
afterEach(() => {
  if (savedEnvKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedEnvKey;
});

function optionError(options: unknown): UserError {
  try {
    new OpenAIResponsesModel(options as OpenAIResponsesModelOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    expect(error).toMatchObject({ code: 'invalid_option' });
    return error as UserError;
  }
  throw new Error('expected the options to be rejected');
}

describe('OpenAIResponsesModel options', () => {
  it('rejects a missing key with what to do', () => {
    expect(optionError({ model: 'gpt-test' }).message).toMatch(/apiKey.*apiKeyProvider.*OPENAI_API_KEY/);
    expect(optionError({ model: 'gpt-test', apiKey: '  ' }).message).toContain('non-empty');
  });

  it('falls back to OPENAI_API_KEY from the environment', async () => {
    process.env.OPENAI_API_KEY = 'sk-from-env-0123456789';
    const recorded = script(server, [() => HttpResponse.json(responseObject([messageOutput('ok')]))]);
    const model = new OpenAIResponsesModel({ model: 'gpt-test', baseURL: BASE_URL });
    await model.getResponse(userRequest(), {});
    expect(recorded[0]?.headers.get('authorization')).toBe('Bearer sk-from-env-0123456789');
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['both key options', { apiKeyProvider: () => 'x' }, /either apiKey or apiKeyProvider/],
    ['no model', { model: '' }, /model name/],
    ['a bad baseURL', { baseURL: 'not a url' }, /baseURL/],
    ['a non-http baseURL', { baseURL: 'ftp://example.com' }, /http or https/],
    ['credentials in baseURL', { baseURL: 'https://user:pw@example.com/v1' }, /credentials/],
    ['negative maxRetries', { maxRetries: -1 }, /maxRetries/],
    ['fractional maxRetries', { maxRetries: 1.5 }, /maxRetries/],
    ['zero timeoutMs', { timeoutMs: 0 }, /timeoutMs/],
    ['a non-function fetch', { fetch: 'fetch' }, /fetch must be a function/],
    ['an Authorization header', { headers: { authorization: 'Bearer x' } }, /Authorization/],
    ['a bad schema name', { structuredOutput: { name: 'has space' } }, /structuredOutput\.name/],
    ['an empty project', { project: '' }, /project/],
    ['a clock without timers', { clock: { now: () => 0 } }, /clock must implement .*ManualClock/],
  ])('rejects %s before any request', (_what, patch, message) => {
    const recorded = script(server, []);
    const error = optionError({ apiKey: API_KEY, model: 'gpt-test', ...patch });
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(API_KEY);
    expect(recorded).toHaveLength(0);
  });

  it.each([
    [
      { apikey: API_KEY, model: 'gpt-test' },
      "'apikey' in OpenAIResponsesModelOptions. Did you mean 'apiKey'?",
    ],
    [{ apiKey: API_KEY, model: 'gpt-test', baseUrl: BASE_URL }, "Did you mean 'baseURL'?"],
    [{ apiKey: API_KEY, model: 'gpt-test', timeout: 5 }, "Did you mean 'timeoutMs'?"],
    [{ apiKey: API_KEY, model: 'gpt-test', defaultModel: 'x' }, "Unknown option 'defaultModel'"],
    [
      { apiKey: API_KEY, model: 'gpt-test', structuredOutput: { strcit: false } },
      "Unknown option 'structuredOutput.strcit' in OpenAIResponsesModelOptions. Did you mean 'structuredOutput.strict'?",
    ],
  ])('rejects unknown option %# with the nearest key, before any request', (options, message) => {
    const recorded = script(server, []);
    const create = () => new OpenAIResponsesModel(options as OpenAIResponsesModelOptions);
    expect(create).toThrow(UnknownOptionError);
    expect(create).toThrow(message);
    expect(create).not.toThrow(API_KEY);
    expect(recorded).toHaveLength(0);
  });

  it('fails a request whose apiKeyProvider returns nothing, without retrying', async () => {
    const recorded = script(server, []);
    const model = new OpenAIResponsesModel({
      apiKeyProvider: () => '',
      model: 'gpt-test',
      baseURL: BASE_URL,
    });
    await expect(model.getResponse(userRequest(), {})).rejects.toMatchObject({ code: 'invalid_option' });
    expect(recorded).toHaveLength(0);
  });
});

describe('OpenAIProvider', () => {
  it('resolves names to cached OpenAIResponsesModels sharing its options', async () => {
    const recorded = script(server, [() => HttpResponse.json(responseObject([messageOutput('ok')]))]);
    const provider = new OpenAIProvider({ apiKey: API_KEY, baseURL: BASE_URL, defaultModel: 'gpt-default' });
    const named = provider.getModel('gpt-named');
    expect(named).toBeInstanceOf(OpenAIResponsesModel);
    expect(named.model).toBe('gpt-named');
    expect(provider.getModel('gpt-named')).toBe(named);
    const fallback = provider.getModel();
    expect(fallback.model).toBe('gpt-default');
    await fallback.getResponse(userRequest(), {});
    expect(recorded[0]?.body.model).toBe('gpt-default');
    expect(recorded[0]?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });

  it('validates its options when created and asks for a model name when it has no default', () => {
    expect(() => new OpenAIProvider({ apiKey: API_KEY, maxRetries: -2 })).toThrow(UserError);
    expect(() => new OpenAIProvider({ apiKey: API_KEY, defaultModel: '' })).toThrow(/defaultModel/);
    const provider = new OpenAIProvider({ apiKey: API_KEY });
    expect(() => provider.getModel()).toThrow(/defaultModel/);
  });

  it('rejects unknown options with the nearest key', () => {
    expect(() => new OpenAIProvider({ apiKey: API_KEY, defaultModle: 'gpt-4.1' } as never)).toThrow(
      "Unknown option 'defaultModle' in OpenAIProviderOptions. Did you mean 'defaultModel'?",
    );
    expect(() => new OpenAIProvider({ apiKey: API_KEY, structuredOutput: { nam: 'x' } } as never)).toThrow(
      "Unknown option 'structuredOutput.nam' in OpenAIProviderOptions. Did you mean 'structuredOutput.name'?",
    );
    expect(() => new OpenAIProvider({ apiKey: API_KEY, model: 'gpt-4.1' } as never)).toThrow(
      "Unknown option 'model' in OpenAIProviderOptions. Did you mean 'defaultModel'?",
    );
  });
});
