import { AzureOpenAIRealtimeModel, type AzureWarning } from '@parley/azure';
import { Agent, type RealtimeEvent, RealtimeSession } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAIRealtimeError, type WebSocketConstructor } from '@parley/openai';
import { type RealtimeSimulator, startRealtimeSimulator } from '@parley/simulator';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { AZURE_KEY, endpointOf, LEGACY_API_VERSION } from './harness.js';
import { recordingWebSocket, StatuslessWebSocket } from './recording-socket.js';

let simulator: RealtimeSimulator | undefined;

async function azureSimulator(
  auth: { apiKeys?: string[]; bearerTokens?: string[] } = { apiKeys: [AZURE_KEY] },
) {
  simulator = await startRealtimeSimulator({ auth: { kind: 'azure', ...auth } });
  return simulator;
}

afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
});

describe('GA path', () => {
  test('connects to /openai/v1/realtime?model=<deployment> with the key in the api-key header, never in the URL', async () => {
    const sim = await azureSimulator();
    const model = new AzureOpenAIRealtimeModel({
      endpoint: endpointOf(sim),
      deployment: 'my-realtime',
      apiKey: AZURE_KEY,
    });
    const connection = await model.connect({ config: { instructions: 'Be brief.' } });
    await connection.close();
    const [upgrade] = sim.upgrades;
    expect(upgrade?.path).toBe('/openai/v1/realtime?model=my-realtime');
    expect(upgrade?.status).toBe(101);
    expect(upgrade?.headers['api-key']).toBe(AZURE_KEY);
    expect(upgrade?.headers.authorization).toBeUndefined();
    expect(upgrade?.headers['openai-beta']).toBeUndefined();
    expect(sim.connections[0]?.model).toBe('my-realtime');
    expect(sim.connections[0]?.session.instructions).toBe('Be brief.');
  });

  test('rawEvents: true surfaces each service event as parsed JSON, ahead of its normalized events', async () => {
    const sim = await azureSimulator();
    const model = new AzureOpenAIRealtimeModel({
      endpoint: endpointOf(sim),
      deployment: 'd',
      apiKey: AZURE_KEY,
    });
    const respond = async (rawEvents: boolean) => {
      const connection = await model.connect({ config: {}, rawEvents });
      const events: RealtimeEvent[] = [];
      connection.onEvent((event) => events.push(event));
      connection.send({ type: 'createResponse', clientRequestId: 'r1', ephemeral: false });
      await vi.waitFor(() => expect(events.some((e) => e.type === 'response_done')).toBe(true), {
        timeout: 5000,
      });
      await connection.close();
      return events;
    };
    const events = await respond(true);
    const raw = events.flatMap((e) => (e.type === 'raw_event' ? [(e.event as { type: string }).type] : []));
    expect(raw).toEqual(expect.arrayContaining(['session.created', 'session.updated', 'response.done']));
    const rawDone = events.findIndex(
      (e) => e.type === 'raw_event' && (e.event as { type: string }).type === 'response.done',
    );
    expect(rawDone).toBeLessThan(events.findIndex((e) => e.type === 'response_done'));
    expect(JSON.stringify(events)).not.toContain(AZURE_KEY);
    expect((await respond(false)).filter((e) => e.type === 'raw_event')).toEqual([]);
  });

  test('keepalive: a ping the service leaves unanswered ends the connection (a silent peer is noticed); invalid settings fail first', async () => {
    const sim = await azureSimulator();
    let pings = 0;
    class DeadPeerSocket extends WsWebSocket {
      override ping(): void {
        pings++; // never sent: no pong comes back
      }
    }
    const clock = new ManualClock();
    const where = { endpoint: endpointOf(sim), deployment: 'my-realtime', apiKey: AZURE_KEY };
    expect(() => new AzureOpenAIRealtimeModel({ ...where, keepalive: { timeoutMs: 0 } })).toThrow(
      /keepalive\.timeoutMs must be a positive integer/,
    );
    expect(() => new AzureOpenAIRealtimeModel({ ...where, keepalive: { interval: 5 } as never })).toThrow(
      /Unknown option 'keepalive\.interval' in AzureOpenAIRealtimeModelOptions\. Did you mean 'keepalive\.intervalMs'\?/,
    );
    const model = new AzureOpenAIRealtimeModel({
      ...where,
      clock,
      WebSocket: DeadPeerSocket as unknown as WebSocketConstructor,
      keepalive: { intervalMs: 1_000, timeoutMs: 500 },
    });
    const connection = await model.connect({ config: {} });
    const events: RealtimeEvent[] = [];
    connection.onEvent((event) => events.push(event));
    const disconnects = () =>
      events.filter((e) => e.type === 'connection_status' && e.status === 'disconnected');
    await clock.advance(1_499);
    expect(pings).toBe(1);
    expect(disconnects()).toEqual([]);
    await clock.advance(1);
    expect(disconnects()).toEqual([
      expect.objectContaining({ reason: expect.stringContaining('no pong within 500 ms') }),
    ]);
    await connection.close();
  });

  test('an endpoint with a path prefix (a custom domain behind a gateway) keeps it', async () => {
    const sim = await azureSimulator();
    const model = new AzureOpenAIRealtimeModel({
      endpoint: `${endpointOf(sim)}/gateway/`,
      deployment: 'd',
      apiKey: AZURE_KEY,
    });
    expect(model.url).toBe(`ws://127.0.0.1:${sim.port}/gateway/openai/v1/realtime?model=d`);
    // The simulator serves no /gateway prefix: the upgrade is refused with 404, a typed error with the status.
    const error = await model.connect({ config: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIRealtimeError);
    expect(error).toMatchObject({ code: 'realtime_handshake_failed', status: 404 });
    expect((error as Error).message).toContain('deployment "d"');
    expect((error as Error).message).toContain('AZURE_OPENAI_ENDPOINT');
  });

  test('the app can switch Azure’s default turn detection off', async () => {
    const sim = await azureSimulator();
    const model = new AzureOpenAIRealtimeModel({
      endpoint: endpointOf(sim),
      deployment: 'd',
      apiKey: AZURE_KEY,
    });
    expect(sim.connections).toHaveLength(0);
    const connection = await model.connect({ config: { turnDetection: null } });
    expect(sim.connections[0]?.session.audio?.input?.turn_detection).toBeNull();
    await connection.close();
  });
});

describe('legacy preview path', () => {
  test('apiVersion selects /openai/realtime?api-version&deployment with one deprecation warning, and writes the beta dialect', async () => {
    const sim = await azureSimulator();
    const warnings: AzureWarning[] = [];
    const sent: unknown[] = [];
    const model = new AzureOpenAIRealtimeModel({
      endpoint: endpointOf(sim),
      deployment: 'legacy-dep',
      apiKey: AZURE_KEY,
      apiVersion: LEGACY_API_VERSION,
      WebSocket: recordingWebSocket(sent),
      onWarning: (warning) => warnings.push(warning),
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.code).toBe('azure_legacy_realtime_path');
    expect(warnings[0]?.message).toContain('2026-04-30');
    expect(model.dialect).toBe('beta');
    const connection = await model.connect({
      config: {
        instructions: 'Old school.',
        turnDetection: null,
        outputModalities: ['audio'],
        voice: 'verse',
      },
    });
    expect(sim.upgrades[0]?.path).toBe(
      `/openai/realtime?api-version=${LEGACY_API_VERSION}&deployment=legacy-dep`,
    );
    const update = sent.find((e) => (e as { type: string }).type === 'session.update') as {
      session: Record<string, unknown>;
    };
    // Flat beta fields; nothing of the GA shape.
    expect(update.session).toMatchObject({
      instructions: 'Old school.',
      turn_detection: null,
      modalities: ['text', 'audio'],
      voice: 'verse',
      input_audio_format: 'pcm16',
      output_audio_format: 'pcm16',
    });
    expect(update.session).not.toHaveProperty('type');
    expect(update.session).not.toHaveProperty('audio');
    expect(update.session).not.toHaveProperty('output_modalities');
    // The service understood it (the simulator refuses GA fields on this path).
    expect(sim.connections[0]?.session.audio?.input?.turn_detection).toBeNull();
    expect(sim.connections[0]?.session.audio?.output?.voice).toBe('verse');
    // Assistant items go out with beta content parts.
    connection.send({
      type: 'createItem',
      item: { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Earlier answer.' }] },
    });
    await sim.connections[0]?.waitForClientEvent('conversation.item.create');
    const create = sent.find((e) => (e as { type: string }).type === 'conversation.item.create') as {
      item: { content: { type: string }[] };
    };
    expect(create.item.content[0]?.type).toBe('text');
    // Response requests go out in the beta shape, and the service starts them.
    const started = new Promise<void>((resolve) => {
      connection.onEvent((event) => {
        if (event.type === 'response_started' && event.clientRequestId === 'req-1') resolve();
      });
    });
    connection.send({
      type: 'createResponse',
      clientRequestId: 'req-1',
      ephemeral: false,
      instructions: 'Answer in text.',
    });
    await started;
    const request = sent.find((e) => (e as { type: string }).type === 'response.create') as {
      response: Record<string, unknown>;
    };
    expect(request.response).toMatchObject({ instructions: 'Answer in text.' });
    expect(request.response).not.toHaveProperty('output_modalities');
    await connection.close();
  });

  test('a session on the legacy path reads the beta event names: a spoken reply with its transcript', async () => {
    const sim = await azureSimulator();
    sim.script('Hello from the preview.');
    const model = new AzureOpenAIRealtimeModel({
      endpoint: endpointOf(sim),
      deployment: 'legacy-dep',
      apiKey: AZURE_KEY,
      apiVersion: LEGACY_API_VERSION,
      onWarning: () => {},
    });
    const wireTypes: string[] = [];
    const session = new RealtimeSession(new Agent({ name: 'Old' }), { model });
    try {
      await session.connect();
      sim.connections[0]?.waitForServerEvent('response.done').then(() => {});
      const transcript: string[] = [];
      session.on('transcript_delta', (e) => transcript.push(e.delta));
      let audio = 0;
      session.on('audio', (e) => {
        audio += e.data.byteLength;
      });
      session.sendMessage('Hi');
      for await (const event of session) {
        if (event.type === 'response_done') break;
      }
      expect(transcript.join('')).toBe('Hello from the preview.');
      expect(audio).toBeGreaterThan(0);
      const last = session.history.at(-1);
      expect(last?.type === 'message' && last.text).toBe('Hello from the preview.');
      wireTypes.push(...(sim.connections[0]?.serverEvents.map((e) => String(e.type)) ?? []));
    } finally {
      await session.close();
    }
    expect(wireTypes).toContain('response.output_audio.delta');
  });
});

describe('Microsoft Entra ID', () => {
  test('the tokenProvider is called on every connect and reconnect, and the refreshed token is used', async () => {
    const sim = await azureSimulator({ bearerTokens: ['token-1', 'token-2'] });
    const tokens = ['token-1', 'token-2'];
    let calls = 0;
    const model = new AzureOpenAIRealtimeModel({
      endpoint: endpointOf(sim),
      deployment: 'd',
      tokenProvider: async () => tokens[calls++] ?? 'expired',
    });
    const session = new RealtimeSession(new Agent({ name: 'Entra' }), { model });
    try {
      await session.connect();
      const reconnected = new Promise<void>((resolve) => {
        session.on('reconnected', () => resolve());
      });
      // The connection drops; the session reconnects by itself, asking for a token again.
      sim.connections[0]?.terminate();
      await reconnected;
    } finally {
      await session.close();
    }
    expect(calls).toBe(2);
    expect(sim.upgrades.map((u) => [u.headers.authorization, u.headers['api-key'], u.status])).toEqual([
      ['Bearer token-1', undefined, 101],
      ['Bearer token-2', undefined, 101],
    ]);
    // A third connection gets a token the service no longer accepts: a typed 401 that does not quote it.
    const error = await model.connect({ config: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'realtime_auth_failed', status: 401 });
    expect((error as Error).message).not.toContain('expired');
  });

  test('a tokenProvider that throws rejects connect() with a typed error before any socket opens', async () => {
    const sim = await azureSimulator({ bearerTokens: ['t'] });
    const model = new AzureOpenAIRealtimeModel({
      endpoint: endpointOf(sim),
      deployment: 'd',
      tokenProvider: () => {
        throw new Error('credential chain empty');
      },
    });
    await expect(model.connect({ config: {} })).rejects.toMatchObject({ code: 'azure_token_unavailable' });
    expect(sim.upgrades).toHaveLength(0);
  });
});

describe('refused upgrades are typed errors with the status, on every runtime', () => {
  const runtimes: [string, WebSocketConstructor | undefined][] = [
    ['the ws package', undefined],
    ['a WHATWG WebSocket that hides the status', StatuslessWebSocket as unknown as WebSocketConstructor],
  ];
  for (const [runtime, WebSocket] of runtimes) {
    test(`401 for a wrong key (${runtime}), without the key in the error`, async () => {
      const sim = await azureSimulator();
      const model = new AzureOpenAIRealtimeModel({
        endpoint: endpointOf(sim),
        deployment: 'd',
        apiKey: 'wrong-key-123',
        ...(WebSocket && { WebSocket }),
      });
      const error = await model.connect({ config: {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAIRealtimeError);
      expect(error).toMatchObject({ code: 'realtime_auth_failed', status: 401 });
      expect((error as Error).message).toContain('AZURE_OPENAI_API_KEY');
      expect(JSON.stringify(error)).not.toContain('wrong-key-123');
      expect((error as Error).message).not.toContain('wrong-key-123');
    });

    test(`404 for a path the service does not serve (${runtime})`, async () => {
      const sim = await azureSimulator();
      const model = new AzureOpenAIRealtimeModel({
        endpoint: `${endpointOf(sim)}/nowhere`,
        deployment: 'd',
        apiKey: AZURE_KEY,
        ...(WebSocket && { WebSocket }),
      });
      await expect(model.connect({ config: {} })).rejects.toMatchObject({
        code: 'realtime_handshake_failed',
        status: 404,
      });
    });
  }
});

test('queryAuth puts the key in the URL only when asked, for runtimes without headers', async () => {
  const sim = await azureSimulator();
  const model = new AzureOpenAIRealtimeModel({
    endpoint: endpointOf(sim),
    deployment: 'd',
    apiKey: AZURE_KEY,
    queryAuth: true,
  });
  const connection = await model.connect({ config: {} });
  await connection.close();
  expect(sim.upgrades[0]?.path).toBe(`/openai/v1/realtime?model=d&api-key=${AZURE_KEY}`);
  expect(sim.upgrades[0]?.headers['api-key']).toBeUndefined();
  expect(model.url).not.toContain(AZURE_KEY);
});

describe('transcription deployments', () => {
  test('inputTranscription without a model uses the transcriptionDeployment, on both paths', async () => {
    const sim = await azureSimulator();
    for (const apiVersion of [undefined, LEGACY_API_VERSION]) {
      const model = new AzureOpenAIRealtimeModel({
        endpoint: endpointOf(sim),
        deployment: 'd',
        apiKey: AZURE_KEY,
        transcriptionDeployment: 'my-whisper',
        onWarning: () => {},
        ...(apiVersion && { apiVersion }),
      });
      const connection = await model.connect({ config: { inputTranscription: {} } });
      expect(sim.connections.at(-1)?.session.audio?.input?.transcription).toMatchObject({
        model: 'my-whisper',
      });
      // A later update that turns transcription on again keeps the deployment.
      connection.send({ type: 'updateSession', config: { inputTranscription: { language: 'fr' } } });
      await sim.connections.at(-1)?.waitForServerEvent('session.updated', 2);
      expect(sim.connections.at(-1)?.session.audio?.input?.transcription).toMatchObject({
        model: 'my-whisper',
        language: 'fr',
      });
      await connection.close();
    }
  });

  test('a transcription model that cannot be a deployment name is refused before connecting', async () => {
    const sim = await azureSimulator();
    expect(
      () =>
        new AzureOpenAIRealtimeModel({
          endpoint: endpointOf(sim),
          deployment: 'd',
          apiKey: AZURE_KEY,
          transcriptionDeployment: 'whisper 1',
        }),
    ).toThrow(/transcriptionDeployment must be an Azure deployment name/);
    const model = new AzureOpenAIRealtimeModel({
      endpoint: endpointOf(sim),
      deployment: 'd',
      apiKey: AZURE_KEY,
    });
    await expect(
      model.connect({ config: { inputTranscription: { model: 'openai/whisper' } } }),
    ).rejects.toThrow(/config.inputTranscription.model must be an Azure deployment name/);
    expect(sim.upgrades).toHaveLength(0);
  });
});
