import { describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { simulator } from './helpers.js';
import { RawClient } from './raw-client.js';

/** Attempts an upgrade and reports the HTTP status and body of a refusal (or 101). */
function attempt(url: string, options: { headers?: Record<string, string>; protocols?: string[] } = {}) {
  return new Promise<{ status: number; body: string; protocol?: string }>((resolve) => {
    const ws = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on('open', () => {
      const protocol = ws.protocol;
      ws.close();
      resolve({ status: 101, body: '', protocol });
    });
    ws.on('error', () => {});
  });
}

describe('simulator: authentication at the HTTP upgrade', () => {
  test('OpenAI: Bearer or the insecure-api-key subprotocol; refusals are 401 with a JSON body and no frame', async () => {
    const sim = await simulator({ auth: { kind: 'openai', apiKeys: ['sk-good', 'ek_good'] } });
    const url = `${sim.url}?model=gpt-realtime`;
    expect(await attempt(url, { headers: { Authorization: 'Bearer sk-good' } })).toEqual({
      status: 101,
      body: '',
      protocol: '',
    });
    expect(await attempt(url, { protocols: ['realtime', 'openai-insecure-api-key.ek_good'] })).toEqual({
      status: 101,
      body: '',
      protocol: 'realtime',
    });
    const refused = await attempt(url, { headers: { Authorization: 'Bearer sk-bad' } });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toEqual({
      error: {
        message: expect.stringContaining('Incorrect API key'),
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    });
    expect(refused.body).not.toContain('sk-bad');
    expect((await attempt(url)).status).toBe(401);
    expect(
      (
        await attempt(`ws://127.0.0.1:${sim.port}/v1/other?model=x`, {
          headers: { Authorization: 'Bearer sk-good' },
        })
      ).status,
    ).toBe(404);
    expect((await attempt(sim.url, { headers: { Authorization: 'Bearer sk-good' } })).status).toBe(400);
    expect(sim.upgrades.map((u) => u.status)).toEqual([101, 101, 401, 401, 404, 400]);
    expect(sim.connections).toHaveLength(2);
    await sim.waitForIdle();
  });

  test('the default accepts any non-empty key; kind none accepts anything', async () => {
    const open = await simulator();
    expect(
      (await attempt(`${open.url}?model=m`, { headers: { Authorization: 'Bearer whatever' } })).status,
    ).toBe(101);
    expect((await attempt(`${open.url}?model=m`)).status).toBe(401);
    const none = await simulator({ auth: { kind: 'none' } });
    expect((await attempt(`${none.url}?model=m`)).status).toBe(101);
  });

  test('Azure: GA path with the api-key header, query or Entra bearer; the older deployment path', async () => {
    const sim = await simulator({
      auth: { kind: 'azure', apiKeys: ['az-key'], bearerTokens: ['entra-token'] },
    });
    expect(sim.url).toMatch(/\/openai\/v1\/realtime$/);
    const base = `ws://127.0.0.1:${sim.port}`;
    const ga = `${base}/openai/v1/realtime?model=my-deployment`;
    expect((await attempt(ga, { headers: { 'api-key': 'az-key' } })).status).toBe(101);
    expect((await attempt(`${ga}&api-key=az-key`)).status).toBe(101);
    expect((await attempt(ga, { headers: { Authorization: 'Bearer entra-token' } })).status).toBe(101);
    expect((await attempt(ga, { headers: { 'api-key': 'wrong' } })).status).toBe(401);
    expect(
      (await attempt(`${ga}&api-version=2025-04-01-preview`, { headers: { 'api-key': 'az-key' } })).status,
    ).toBe(400);
    const legacy = `${base}/openai/realtime?api-version=2025-04-01-preview&deployment=old-deployment`;
    expect((await attempt(legacy, { headers: { 'api-key': 'az-key' } })).status).toBe(101);
    expect((await attempt(`${base}/v1/realtime?model=x`, { headers: { 'api-key': 'az-key' } })).status).toBe(
      404,
    );
    expect(sim.connections.map((c) => c.model)).toEqual([
      'my-deployment',
      'my-deployment',
      'my-deployment',
      'old-deployment',
    ]);
    const client = await RawClient.connect(sim, {
      path: '/openai/v1/realtime?model=dep',
      headers: { 'api-key': 'az-key' },
    });
    expect(client.events[0]?.session).toMatchObject({ model: 'dep' });
  });
});
