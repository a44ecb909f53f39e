import { Agent, RealtimeSession, type RealtimeSessionEvent, tool } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { ClientSecretError, createClientSecret, OpenAIRealtimeError } from '@parley/openai';
import { OpenAIRealtimeWebRTCModel, type PeerConnectionLike } from '@parley/openai/webrtc';
import { startRealtimeSimulator } from '@parley/simulator';
import { afterEach, describe, expect, test } from 'vitest';
import { RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { z } from 'zod';
import { sent } from './helpers.js';

/** A werift peer on loopback, as a browser's RTCPeerConnection, counting the audio packets it receives. */
function loopbackPeer(received: { packets: number; waiters: (() => void)[] }): PeerConnectionLike {
  const peer = new RTCPeerConnection({
    codecs: {
      audio: [
        new RTCRtpCodecParameters({ mimeType: 'audio/PCMU', clockRate: 8000, channels: 1, payloadType: 0 }),
      ],
    },
    iceUseIpv6: false,
    iceInterfaceAddresses: { udp4: '127.0.0.1' },
    iceAdditionalHostAddresses: ['127.0.0.1'],
  });
  peer.onTrack.subscribe((track) => {
    track.onReceiveRtp.subscribe(() => {
      received.packets++;
      for (const waiter of received.waiters.splice(0)) waiter();
    });
  });
  return peer as unknown as PeerConnectionLike;
}

/** A fetch that, like a browser's, throws "Illegal invocation" when called as another object's method. */
function browserLikeFetch(this: unknown, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  if (this !== undefined && this !== globalThis)
    throw new TypeError("Failed to execute 'fetch': Illegal invocation");
  return fetch(input, init);
}

/**
 * Advances the simulator's clock in 100 ms steps until `done()` holds. The simulator may start pacing a response a
 * few turns of the event loop after the request reached it (the data channel delivers it asynchronously), so one
 * large advance can land before its timers exist; bounded at 20 s of simulated time.
 */
async function advanceUntil(clock: ManualClock, done: () => boolean, what: string): Promise<void> {
  for (let step = 0; step < 200 && !done(); step++) {
    await clock.advance(100);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!done()) throw new Error(`20 s of simulated time passed without ${what}`);
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function webrtcCall(agent: Agent) {
  const clock = new ManualClock();
  const sim = await startRealtimeSimulator({ clock, msPerChar: 20, chunkMs: 100 });
  cleanups.push(() => sim.close());
  const received = { packets: 0, waiters: [] as (() => void)[] };
  const model = new OpenAIRealtimeWebRTCModel({
    clientSecret: 'ek_simulated_call_key',
    baseURL: sim.httpBaseURL,
    createPeerConnection: () => loopbackPeer(received),
    fetch: browserLikeFetch,
  });
  const session = new RealtimeSession(agent, { model });
  cleanups.push(() => session.close());
  const events: RealtimeSessionEvent[] = [];
  const turnWaiters: (() => void)[] = [];
  session.on('audio_interrupted', (event) => events.push(event));
  session.on('turn_done', (event) => {
    events.push(event);
    for (const waiter of turnWaiters.splice(0)) waiter();
  });
  /** Resolves once `count` turns are done. */
  const turns = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () =>
        events.filter((e) => e.type === 'turn_done').length >= count ? resolve() : turnWaiters.push(check);
      check();
    });
  await session.connect();
  const server = await sim.waitForConnection(0);
  /** Resolves once the client has received `count` audio packets in all. */
  const packets = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => (received.packets >= count ? resolve() : received.waiters.push(check));
      check();
    });
  return { sim, clock, session, server, events, received, packets, turns };
}

const weather = tool({
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}`,
});

describe('OpenAI Realtime over WebRTC against the simulator (werift on both ends)', () => {
  test('a question answered after a tool call: events on oai-events, the voice on the RTP track', async () => {
    const { sim, clock, session, server, packets, turns } = await webrtcCall(
      new Agent({ name: 'Forecaster', instructions: 'Answer briefly.', tools: [weather] }),
    );
    expect(server.path).toBe('/v1/realtime/calls');
    expect(server.headers.authorization).toBe('Bearer ek_simulated_call_key');
    expect(server.callId).toMatch(/^rtc_/);
    expect(sim.call(server.callId as string)?.line).toBe('webrtc');
    sim.script([{ type: 'function_call', name: 'get_weather', arguments: { city: 'Paris' } }], (turn) =>
      turn.toolOutputs.map((t) => `${t.output}.`).join(' '),
    );
    session.sendMessage('What is the weather in Paris?');
    await server.waitForClientEvent('response.create');
    await advanceUntil(
      clock,
      () => sent(server, 'response.create').length >= 2,
      'the follow-up response.create',
    );
    // The tool's output, then the one follow-up request.
    await server.waitForClientEvent('response.create', 2);
    expect(sent(server, 'conversation.item.create').at(-1)?.item).toMatchObject({
      type: 'function_call_output',
      output: 'Sunny in Paris',
    });
    await advanceUntil(
      clock,
      () =>
        server.serverEvents.filter((e) => e.type === 'response.done').length >= 2 &&
        server.serverEvents.some((e) => e.type === 'output_audio_buffer.stopped'),
      'the answer to be played out',
    );
    await server.waitForServerEvent('response.done', 2);
    await server.waitForServerEvent('output_audio_buffer.stopped');
    // The voice travels on the track: no audio delta on the data channel.
    expect(server.serverEvents.filter((e) => e.type === 'response.output_audio.delta')).toEqual([]);
    await packets(10);
    await turns(1);
    const assistant = session.history.filter((item) => item.type === 'message' && item.role === 'assistant');
    expect(assistant.at(-1)).toMatchObject({
      text: 'Sunny in Paris.',
      status: 'completed',
      interrupted: false,
    });
    expect(session.history.find((item) => item.type === 'function_call')).toMatchObject({
      name: 'get_weather',
      output: 'Sunny in Paris',
    });
    expect(sent(server, 'conversation.item.truncate')).toEqual([]);
  });

  test('a barge-in: cancel and output_audio_buffer.clear, and the service truncates where playback stopped', async () => {
    const { sim, clock, session, server, packets, turns } = await webrtcCall(
      new Agent({ name: 'Talker', instructions: 'Talk.' }),
    );
    sim.script('This is a long answer that keeps going and going so that the listener can cut in halfway.');
    const started = new Promise((resolve) => session.on('response_started', resolve));
    session.sendMessage('Tell me a long story.');
    await server.waitForClientEvent('response.create');
    // First output after 500 ms, generated 5x faster than it plays: at 700 ms the response is still streaming and
    // 200 ms of it has played.
    await clock.advance(700);
    await server.waitForServerEvent('output_audio_buffer.started');
    await started;
    await packets(5);
    const playing = server.activeResponses[0]?.id;
    expect(playing).toBeDefined();
    const interrupted = new Promise((resolve) => session.on('audio_interrupted', resolve));
    session.interrupt();
    await server.waitForClientEvent('output_audio_buffer.clear');
    const truncated = await server.waitForServerEvent('conversation.item.truncated');
    await server.waitForServerEvent('output_audio_buffer.cleared');
    const wire = server.clientEvents.map((e) => (e as { type: string }).type);
    const cancelAt = wire.indexOf('response.cancel');
    expect(cancelAt).toBeGreaterThan(-1);
    expect(wire.slice(cancelAt)).toEqual(['response.cancel', 'output_audio_buffer.clear']);
    expect(sent(server, 'conversation.item.truncate')).toEqual([]);
    // The service cut the message where it stopped playing it (whole 20 ms frames played by 700 ms), not at what
    // it had generated.
    const heard = server.playedMs(truncated.item_id as string);
    expect(heard).toBeGreaterThan(0);
    expect(heard % 20).toBe(0);
    expect(truncated.audio_end_ms).toBe(heard);
    // The session heard it from the service: the message is partial in history, heard that much.
    expect(await interrupted).toEqual({
      type: 'audio_interrupted',
      responseId: playing,
      itemId: truncated.item_id,
      heardMs: heard,
    });
    await turns(1);
    expect(session.history.find((item) => item.itemId === truncated.item_id)).toMatchObject({
      interrupted: true,
      heardMs: heard,
    });
  });

  test('a refused key fails connect with realtime_auth_failed, and nothing stays open', async () => {
    const sim = await startRealtimeSimulator({ auth: { kind: 'openai', apiKeys: ['ek_right'] } });
    cleanups.push(() => sim.close());
    const model = new OpenAIRealtimeWebRTCModel({
      clientSecret: 'ek_wrong',
      baseURL: sim.httpBaseURL,
      createPeerConnection: () => loopbackPeer({ packets: 0, waiters: [] }),
    });
    const failure = await model.connect({ config: {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAIRealtimeError);
    expect(failure).toMatchObject({ code: 'realtime_auth_failed', status: 401 });
    expect(String((failure as Error).message)).not.toContain('ek_wrong');
    expect(sim.connections).toHaveLength(0);
  });
});

describe('what a browser needs from the service to start a call', () => {
  test("a client secret minted by the app's server opens the call, with the session bound to it", async () => {
    const sim = await startRealtimeSimulator({ auth: { kind: 'openai', apiKeys: ['sk-app-server'] } });
    cleanups.push(() => sim.close());
    const secret = await createClientSecret({
      apiKey: 'sk-app-server',
      baseURL: sim.httpBaseURL,
      expiresAfterSeconds: 60,
      session: { instructions: 'Bound to the key.' },
    });
    expect(secret.value).toMatch(/^ek_/);
    expect(sim.clientSecrets.map((s) => s.value)).toEqual([secret.value]);
    const model = new OpenAIRealtimeWebRTCModel({
      clientSecret: secret.value,
      baseURL: sim.httpBaseURL,
      createPeerConnection: () => loopbackPeer({ packets: 0, waiters: [] }),
    });
    const connection = await model.connect({ config: {} });
    cleanups.push(() => connection.close());
    const server = await sim.waitForConnection(0);
    expect(server.headers.authorization).toBe(`Bearer ${secret.value}`);
    expect(sim.call(server.callId as string)?.session.instructions).toBe('Bound to the key.');

    // Only the server's standard key mints: neither an ephemeral key nor a wrong one.
    for (const apiKey of [secret.value, 'sk-wrong']) {
      const refused = await createClientSecret({ apiKey, baseURL: sim.httpBaseURL }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ClientSecretError);
      expect(refused).toMatchObject({ status: 401 });
    }
  });

  test('the calls endpoint answers a cross-origin preflight and lets the page read the call id', async () => {
    const sim = await startRealtimeSimulator();
    cleanups.push(() => sim.close());
    const preflight = await fetch(`${sim.httpBaseURL}/realtime/calls`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://127.0.0.1:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toBe(
      'authorization, content-type',
    );
    // A refused offer is readable by the page too (its error message), as is an answer's Location.
    const refused = await fetch(`${sim.httpBaseURL}/realtime/calls`, {
      method: 'POST',
      headers: {
        Origin: 'http://127.0.0.1:5173',
        Authorization: 'Bearer ek_x',
        'Content-Type': 'text/plain',
      },
      body: 'v=0',
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('access-control-expose-headers')).toContain('Location');
  });
});
