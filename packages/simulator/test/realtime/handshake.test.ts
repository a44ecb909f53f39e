import { inspect } from 'node:util';
import { OpenAIRealtimeModel } from '@parley/openai';
import { describe, expect, test, vi } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { API_KEY, EventLog, modelFor, sent, simulator } from './helpers.js';

describe('OpenAIRealtimeModel handshake', () => {
  test('declares the seam version, provider and capabilities of the public endpoint', () => {
    const model = new OpenAIRealtimeModel({ apiKey: API_KEY });
    expect(model.specificationVersion).toBe('parley.realtime.v2');
    expect(model.provider).toBe('openai');
    expect(model.model).toBe('gpt-realtime');
    expect(model.capabilities).toEqual({
      ephemeralResponse: true,
      messageTruncation: true,
      mutableChatContext: true,
      turnDetection: true,
      userTranscription: true,
      audioOutput: true,
      mutableInstructions: true,
      mutableTools: true,
      autoToolResponseGeneration: false,
      responseRequests: true,
      hostedTools: ['mcp'],
    });
  });

  test('opens /v1/realtime?model=… with a Bearer header, no subprotocol, no beta header, no key in the URL', async () => {
    const sim = await simulator();
    const model = modelFor(sim, { model: 'gpt-realtime-mini', headers: { 'OpenAI-Project': 'proj_1' } });
    const connection = await model.connect({ config: {} });
    const server = await sim.waitForConnection();
    expect(server.path).toBe('/v1/realtime?model=gpt-realtime-mini');
    expect(server.model).toBe('gpt-realtime-mini');
    expect(server.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(server.headers['openai-project']).toBe('proj_1');
    expect(server.headers['openai-beta']).toBeUndefined();
    expect(server.headers['sec-websocket-protocol']).toBeUndefined();
    expect(server.protocol).toBe('');
    for (const upgrade of sim.upgrades) expect(upgrade.path).not.toContain(API_KEY);
    expect(connection.status).toBe('open');
    await connection.close();
  });

  test('keeps a target already in the url and adds nothing', async () => {
    const sim = await simulator();
    const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url: `${sim.url}?model=custom-deployment&x=1` });
    const connection = await model.connect({ config: {} });
    expect((await sim.waitForConnection()).path).toBe('/v1/realtime?model=custom-deployment&x=1');
    await connection.close();
  });

  test('resolves connect() after session.created and the confirmed initial session.update', async () => {
    const sim = await simulator();
    const connection = await modelFor(sim).connect({ config: { instructions: 'Be brief.', voice: 'marin' } });
    const server = await sim.waitForConnection();
    expect(server.serverEvents.map((e) => e.type)).toEqual(['session.created', 'session.updated']);
    expect(server.clientEvents).toEqual([
      {
        type: 'session.update',
        event_id: expect.stringMatching(/^parley\.updateSession\./),
        session: {
          type: 'realtime',
          instructions: 'Be brief.',
          audio: {
            input: { format: { type: 'audio/pcm', rate: 24000 } },
            output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'marin' },
          },
        },
      },
    ]);
    expect(server.session.instructions).toBe('Be brief.');
    const log = new EventLog(connection);
    // The first subscriber gets what happened before it subscribed.
    await expect(log.waitFor('connection_status')).resolves.toEqual({
      type: 'connection_status',
      status: 'connected',
    });
    await connection.close();
  });

  test('with the ws package given explicitly, uses its (url, protocols, { headers }) form', async () => {
    const sim = await simulator();
    const model = modelFor(sim, { WebSocket: WsWebSocket });
    expect(model.webSocketStyle).toBe('ws');
    const connection = await model.connect({ config: {} });
    expect((await sim.waitForConnection()).headers.authorization).toBe(`Bearer ${API_KEY}`);
    await connection.close();
  });

  test('defaults to the ws package on Node', async () => {
    const sim = await simulator();
    const model = modelFor(sim);
    expect(model.webSocketStyle).toBe('ws');
    const connection = await model.connect({ config: {} });
    expect((await sim.waitForConnection()).headers.authorization).toBe(`Bearer ${API_KEY}`);
    await connection.close();
  });

  test('on Node, a global WebSocket (Node 22+) is not the default: ws is, so keepalive pings work', async () => {
    let constructed = 0;
    class GlobalWebSocket {
      constructor() {
        constructed += 1;
        throw new Error('the global WebSocket must not be used by default on Node');
      }
    }
    vi.stubGlobal('WebSocket', GlobalWebSocket);
    try {
      const sim = await simulator();
      const model = modelFor(sim);
      expect(model.webSocketStyle).toBe('ws');
      const connection = await model.connect({ config: {} });
      expect((await sim.waitForConnection()).headers.authorization).toBe(`Bearer ${API_KEY}`);
      await connection.close();
      expect(constructed).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  test("the 'headers-init' form passes { protocols, headers } as the second argument", async () => {
    const sim = await simulator();
    const seen: unknown[][] = [];
    class Recording extends WsWebSocket {
      constructor(...args: ConstructorParameters<typeof WsWebSocket>) {
        seen.push(args);
        super(...args);
      }
    }
    const model = modelFor(sim, { WebSocket: Recording, webSocketStyle: 'headers-init' });
    const connection = await model.connect({ config: {} });
    expect(seen).toEqual([
      [
        expect.stringContaining('/v1/realtime?model=gpt-realtime'),
        { protocols: [], headers: { Authorization: `Bearer ${API_KEY}` } },
      ],
    ]);
    expect((await sim.waitForConnection()).headers.authorization).toBe(`Bearer ${API_KEY}`);
    await connection.close();
  });

  test('a browser-style socket sends an ephemeral key as the openai-insecure-api-key subprotocol', async () => {
    const sim = await simulator({ auth: { kind: 'openai', apiKeys: ['ek_abc123'] } });
    const model = modelFor(sim, {
      apiKey: 'ek_abc123',
      WebSocket: WsWebSocket,
      webSocketStyle: 'browser',
      headers: { 'OpenAI-Organization': 'org_9' },
    });
    const connection = await model.connect({ config: {} });
    const server = await sim.waitForConnection();
    expect(server.headers.authorization).toBeUndefined();
    expect(server.headers['sec-websocket-protocol']).toBe(
      'realtime,openai-insecure-api-key.ek_abc123,openai-organization.org_9',
    );
    expect(server.protocol).toBe('realtime');
    expect(server.path).not.toContain('ek_abc123');
    await connection.close();
  });

  test('apiKeyProvider is asked before every connection', async () => {
    const sim = await simulator({ auth: { kind: 'openai', apiKeys: ['k-1', 'k-2'] } });
    const keys = ['k-1', 'k-2'];
    const model = new OpenAIRealtimeModel({
      url: sim.url,
      apiKeyProvider: async () => keys.shift() as string,
    });
    const first = await model.connect({ config: {} });
    const second = await model.connect({ config: {} });
    expect(sim.connections.map((c) => c.headers.authorization)).toEqual(['Bearer k-1', 'Bearer k-2']);
    await Promise.all([first.close(), second.close()]);
  });

  test('falls back to OPENAI_API_KEY', async () => {
    const sim = await simulator();
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-from-env';
    try {
      const connection = await new OpenAIRealtimeModel({ url: sim.url }).connect({ config: {} });
      expect((await sim.waitForConnection()).headers.authorization).toBe('Bearer sk-from-env');
      await connection.close();
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
  });

  test('the key does not show in the model or the connection when inspected or serialized', async () => {
    const sim = await simulator();
    const model = modelFor(sim);
    const connection = await model.connect({ config: {} });
    for (const value of [model, connection]) {
      expect(inspect(value, { depth: 10, showHidden: true })).not.toContain(API_KEY);
      expect(JSON.stringify(value) ?? '').not.toContain(API_KEY);
    }
    await connection.close();
    expect(sent(await sim.waitForConnection(), 'session.update')).toHaveLength(1);
  });
});
