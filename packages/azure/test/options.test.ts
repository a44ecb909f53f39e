import { AzureOpenAIRealtimeModel, AzureOpenAIResponsesModel } from '@parley/azure';
import { UserError } from '@parley/core';
import { afterEach, describe, expect, test, vi } from 'vitest';

const base = { endpoint: 'https://my-resource.openai.azure.com', deployment: 'gpt-realtime', apiKey: 'k' };

afterEach(() => {
  vi.unstubAllEnvs();
});

function clearEnv(): void {
  vi.stubEnv('AZURE_OPENAI_ENDPOINT', '');
  vi.stubEnv('AZURE_OPENAI_API_KEY', '');
  vi.stubEnv('AZURE_OPENAI_DEPLOYMENT', '');
}

const models = [
  ['AzureOpenAIRealtimeModel', (o: object) => new AzureOpenAIRealtimeModel(o)],
  ['AzureOpenAIResponsesModel', (o: object) => new AzureOpenAIResponsesModel(o)],
] as const;

for (const [name, create] of models) {
  describe(`${name} options`, () => {
    test.each([
      ['the endpoint', { deployment: 'd', apiKey: 'k' }, 'AZURE_OPENAI_ENDPOINT'],
      ['the credential', { endpoint: base.endpoint, deployment: 'd' }, 'AZURE_OPENAI_API_KEY'],
      ['the deployment', { endpoint: base.endpoint, apiKey: 'k' }, 'AZURE_OPENAI_DEPLOYMENT'],
    ])('without %s, the error names the option and its environment variable', (_what, options, variable) => {
      clearEnv();
      const error = (() => {
        try {
          create(options);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(UserError);
      expect(error).toMatchObject({ code: 'invalid_option' });
      expect((error as Error).message).toContain(variable);
    });

    test('reads endpoint, key and deployment from the environment', () => {
      vi.stubEnv('AZURE_OPENAI_ENDPOINT', 'https://env-resource.openai.azure.com/');
      vi.stubEnv('AZURE_OPENAI_API_KEY', 'env-key');
      vi.stubEnv('AZURE_OPENAI_DEPLOYMENT', 'env-deployment');
      const model = create({});
      expect(model.deployment).toBe('env-deployment');
    });

    test.each([
      [
        'an unknown option',
        { ...base, deploymnet: 'x' },
        /Unknown option 'deploymnet'.*Did you mean 'deployment'/,
      ],
      [
        'both apiKey and tokenProvider',
        { ...base, tokenProvider: () => 't' },
        /either apiKey or tokenProvider/,
      ],
      ['both endpoint and resourceName', { ...base, resourceName: 'r' }, /either endpoint or resourceName/],
      ['a bad resource name', { deployment: 'd', apiKey: 'k', resourceName: 'no spaces' }, /resourceName/],
      [
        'an endpoint with a query',
        { ...base, endpoint: 'https://r.openai.azure.com/?api-key=x' },
        /bare endpoint/,
      ],
      ['an ftp endpoint', { ...base, endpoint: 'ftp://r' }, /https/],
      ['a bad deployment name', { ...base, deployment: 'has space' }, /deployment name/],
      ['a key with a line break', { ...base, apiKey: 'k\n' }, /line breaks/],
      ['an api-key header', { ...base, headers: { 'API-Key': 'x' } }, /must not set "API-Key"/],
      ['an Authorization header', { ...base, headers: { Authorization: 'x' } }, /must not set/],
      ['a clock without timers', { ...base, clock: { now: () => 0 } }, /clock must implement .*ManualClock/],
      ['a clock that is null', { ...base, clock: null }, /clock must implement/],
    ])('rejects %s before connecting', (_what, options, message) => {
      clearEnv();
      expect(() => create(options)).toThrow(message);
    });

    test('a key from the environment that is malformed is named by its variable, not quoted', () => {
      vi.stubEnv('AZURE_OPENAI_API_KEY', 'secret value');
      expect(() => create({ endpoint: base.endpoint, deployment: 'd' })).toThrow(
        /^AZURE_OPENAI_API_KEY contains/,
      );
    });
  });
}

describe('Realtime URL forms', () => {
  test.each([
    [
      'https://my-resource.openai.azure.com',
      'wss://my-resource.openai.azure.com/openai/v1/realtime?model=dep',
    ],
    [
      'https://my-resource.openai.azure.com/openai/v1/',
      'wss://my-resource.openai.azure.com/openai/v1/realtime?model=dep',
    ],
    [
      'https://my-resource.openai.azure.com/openai',
      'wss://my-resource.openai.azure.com/openai/v1/realtime?model=dep',
    ],
    ['wss://my-resource.openai.azure.com', 'wss://my-resource.openai.azure.com/openai/v1/realtime?model=dep'],
    ['https://ai.contoso.com', 'wss://ai.contoso.com/openai/v1/realtime?model=dep'],
    ['http://127.0.0.1:8080', 'ws://127.0.0.1:8080/openai/v1/realtime?model=dep'],
  ])('GA: %s → %s', (endpoint, url) => {
    expect(new AzureOpenAIRealtimeModel({ endpoint, deployment: 'dep', apiKey: 'k' }).url).toBe(url);
  });

  test('resourceName builds the openai.azure.com endpoint', () => {
    const model = new AzureOpenAIRealtimeModel({
      resourceName: 'my-resource',
      deployment: 'dep',
      apiKey: 'k',
    });
    expect(model.url).toBe('wss://my-resource.openai.azure.com/openai/v1/realtime?model=dep');
  });

  test('legacy: only with apiVersion, which is validated', () => {
    const model = new AzureOpenAIRealtimeModel({
      ...base,
      apiVersion: '2025-04-01-preview',
      onWarning: () => {},
    });
    expect(model.url).toBe(
      'wss://my-resource.openai.azure.com/openai/realtime?api-version=2025-04-01-preview&deployment=gpt-realtime',
    );
    expect(() => new AzureOpenAIRealtimeModel({ ...base, apiVersion: 'latest' })).toThrow(/apiVersion/);
  });

  test('the GA path warns about nothing', () => {
    const onWarning = vi.fn();
    new AzureOpenAIRealtimeModel({ ...base, onWarning });
    expect(onWarning).not.toHaveBeenCalled();
  });

  test('queryAuth needs an api key, and a browser WebSocket needs queryAuth', () => {
    expect(
      () =>
        new AzureOpenAIRealtimeModel({
          endpoint: base.endpoint,
          deployment: 'd',
          tokenProvider: () => 't',
          queryAuth: true,
        }),
    ).toThrow(/cannot carry a tokenProvider token/);
    expect(() => new AzureOpenAIRealtimeModel({ ...base, webSocketStyle: 'browser' })).toThrow(/queryAuth/);
    expect(
      new AzureOpenAIRealtimeModel({ ...base, webSocketStyle: 'browser', queryAuth: true }).webSocketStyle,
    ).toBe('browser');
  });
});
