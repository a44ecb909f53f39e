import { AzureOpenAILiveModel } from '@parley/azure';
import { Agent, RealtimeSession } from '@parley/core';
import { OpenAILiveError } from '@parley/openai';
import { describe, expect, test } from 'vitest';
import { liveSimulator } from '../../simulator/test/live/live-rig.js';
import { AZURE_KEY, endpointOf } from './harness.js';

describe('GPT-Live on Azure Foundry', () => {
  test('a typo in a GPT-Live option fails before connecting, naming the nearest key; the GPT-Live options are accepted', () => {
    const where = {
      endpoint: 'https://my-resource.openai.azure.com',
      deployment: 'my-live',
      apiKey: AZURE_KEY,
    };
    expect(() => new AzureOpenAILiveModel({ ...where, silenceFrameMS: 20 } as never)).toThrow(
      "Unknown option 'silenceFrameMS' in AzureOpenAILiveModelOptions. Did you mean 'silenceFrameMs'?",
    );
    expect(
      () =>
        new AzureOpenAILiveModel({
          ...where,
          delegation: 'responses',
          backend: { model: 'gpt-5.5', instruction: 'Be exact.' },
        } as never),
    ).toThrow(
      "Unknown option 'backend.instruction' in AzureOpenAILiveModelOptions. Did you mean 'backend.instructions'?",
    );
    expect(
      () => new AzureOpenAILiveModel({ ...where, input: [{ rol: 'user', text: 'Hi.' }] } as never),
    ).toThrow("Unknown option 'input[0].rol' in AzureOpenAILiveModelOptions. Did you mean 'input[0].role'?");
    expect(() => new AzureOpenAILiveModel({ ...where, keepalive: { interval: 5_000 } } as never)).toThrow(
      "Unknown option 'keepalive.interval' in AzureOpenAILiveModelOptions. Did you mean 'keepalive.intervalMs'?",
    );
    expect(
      () =>
        new AzureOpenAILiveModel({
          ...where,
          silenceFrameMs: 20,
          turnGapMs: 800,
          acknowledgementDelayMs: 0,
          connectTimeoutMs: 5_000,
          closeTimeoutMs: 1_000,
          keepalive: { intervalMs: 20_000, timeoutMs: 5_000 },
        }),
    ).not.toThrow();
  });

  test('connects to /openai/v1/live/sessions with the api-key header; the deployment is the session model', async () => {
    const sim = await liveSimulator({ azure: true, apiKeys: [AZURE_KEY] });
    const model = new AzureOpenAILiveModel({
      endpoint: endpointOf(sim),
      deployment: 'my-live',
      apiKey: AZURE_KEY,
    });
    expect(model.url).toBe(`ws://127.0.0.1:${sim.port}/openai/v1/live/sessions`);
    expect(model.capabilities.delegation).toBe(true);
    const session = new RealtimeSession(new Agent({ name: 'V', instructions: 'Be brief.' }), { model });
    await session.connect();
    await session.close();
    const [upgrade] = sim.upgrades;
    expect(upgrade).toMatchObject({ path: '/openai/v1/live/sessions', status: 101 });
    expect(upgrade?.headers['api-key']).toBe(AZURE_KEY);
    expect(upgrade?.headers.authorization).toBeUndefined();
    expect(sim.sessions[0]?.resource).toMatchObject({ model: 'my-live', instructions: 'Be brief.' });
  });

  test('a Microsoft Entra token goes as Authorization: Bearer, fetched before every connection', async () => {
    const sim = await liveSimulator({ azure: true, apiKeys: ['entra-token-2'] });
    let n = 0;
    const model = new AzureOpenAILiveModel({
      endpoint: endpointOf(sim),
      deployment: 'my-live',
      tokenProvider: () => `entra-token-${++n}`,
    });
    const refused = await model.connect({ config: {} }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAILiveError);
    expect((refused as OpenAILiveError).code).toBe('live_auth_failed');
    expect(String((refused as Error).message)).not.toContain('entra-token');
    const connection = await model.connect({ config: {} });
    await connection.close();
    expect(sim.upgrades.map((u) => [u.headers.authorization, u.status])).toEqual([
      ['Bearer entra-token-1', 401],
      ['Bearer entra-token-2', 101],
    ]);
  });

  test('options are checked before connecting: unknown keys, a missing deployment', () => {
    expect(
      () =>
        new AzureOpenAILiveModel({
          endpoint: 'https://r.openai.azure.com',
          deployment: 'd',
          apiKey: 'k',
          voice: 'x',
        } as never),
    ).toThrow(/voice/);
    expect(() => new AzureOpenAILiveModel({ endpoint: 'https://r.openai.azure.com', apiKey: 'k' })).toThrow(
      /deployment/,
    );
  });
});
