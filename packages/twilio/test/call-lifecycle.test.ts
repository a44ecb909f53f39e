import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, RealtimeSession, ReportedPlaybackTracker } from '@parley/core';
import { OpenAIRealtimeModel } from '@parley/openai';
import {
  TwilioCall,
  type TwilioCallEvent,
  TwilioMediaStreamServer,
  TwilioWebhookVerifier,
  twilioSignature,
} from '@parley/twilio';
import { SimulatedCaller } from '@parley/twilio/testing';
import { describe, expect, test } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { callerSays, heardMsOf, ofType, phoneRig } from './helpers.js';

describe('the call ends cleanly', () => {
  test('a message that is not whole 20 ms frames: its last frame is padded with silence and heard in full once echoed', async () => {
    const rig = await phoneRig();
    rig.sim.script({ type: 'message', text: 'Hello there.', audioMs: 1010 });
    const caller = await SimulatedCaller.dial({ url: rig.url, clock: rig.clock });
    caller.say(callerSays('hi'));
    await caller.until(() => ofType(rig.events, 'turn_done').length === 1);
    const frames = caller.received.flatMap((m) =>
      m.event === 'media' ? [Buffer.from(m.media.payload, 'base64')] : [],
    );
    expect(frames).toHaveLength(51); // 8080 bytes: 50 whole frames and 80 bytes
    const last = frames[50] as Buffer;
    expect(last.subarray(80).every((byte) => byte === 0xff)).toBe(true);
    expect(caller.heardBytes).toBe(51 * 160);
    expect(caller.echoedMarks).toHaveLength(51);
    const [turn] = ofType(rig.events, 'turn_done');
    expect(turn?.outcome).toBe('full');
    await caller.hangUp();
  });

  test('a dropped socket (no stop) ends the call: the session closes and the turn that was playing is reported', async () => {
    const rig = await phoneRig();
    rig.sim.script({
      type: 'message',
      text: 'A long answer that the caller never finishes hearing.',
      audioMs: 3000,
    });
    const caller = await SimulatedCaller.dial({ url: rig.url, clock: rig.clock });
    caller.say(callerSays('hello'));
    await caller.until((c) => c.heardBytes >= 400 * 8);
    caller.drop();
    const call = rig.calls[0];
    expect(await call?.ended).toBe('socket_closed');
    expect(rig.sessions[0]?.status).toBe('closed');
    const [turn] = ofType(rig.events, 'turn_done');
    expect(turn?.outcome).toBe('partial');
    expect(heardMsOf(turn?.messages[0])).toBeGreaterThanOrEqual(400);
    expect(heardMsOf(turn?.messages[0])).toBeLessThan(3000);
    expect(rig.streams.calls.size).toBe(0);
  });

  test('a session that guesses playback on a clock is refused at start: a fatal error, the call ends', async () => {
    const rig = await phoneRig();
    const streams = new TwilioMediaStreamServer({
      path: '/media',
      session: () => {
        const session = new RealtimeSession(new Agent({ name: 'A' }), {
          model: new OpenAIRealtimeModel({ apiKey: 'sk-test', url: rig.sim.url }),
          config: { inputAudioFormat: 'g711_ulaw', outputAudioFormat: 'g711_ulaw' },
        });
        made.push(session);
        return session;
      },
      onCall: (call) => call.on('error', (event) => errors.push(event)),
    });
    const errors: TwilioCallEvent[] = [];
    const made: RealtimeSession[] = [];
    const server = createServer();
    server.on('upgrade', streams.handleUpgrade);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const caller = await SimulatedCaller.dial({ url: `ws://127.0.0.1:${port}/media`, clock: rig.clock });
      await caller.closed;
      expect(errors).toMatchObject([{ code: 'twilio_session_not_phone_ready', fatal: true }]);
      expect(String((errors[0] as { message: string }).message)).toContain('ReportedPlaybackTracker');
      expect(made[0]?.status).toBe('closed');
    } finally {
      await streams.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('a session whose provider confirmed PCM audio is refused once connected: a fatal error naming the fix', async () => {
    const rig = await phoneRig();
    const errors: TwilioCallEvent[] = [];
    const sessions: RealtimeSession[] = [];
    const streams = new TwilioMediaStreamServer({
      path: '/media',
      clock: rig.clock,
      session: () => {
        const session = new RealtimeSession(new Agent({ name: 'A' }), {
          model: new OpenAIRealtimeModel({ apiKey: 'sk-test', url: rig.sim.url }),
          playbackTracker: new ReportedPlaybackTracker(),
          reconnect: false,
        });
        sessions.push(session);
        return session;
      },
      onCall: (call) => call.on('error', (event) => errors.push(event)),
    });
    const server = createServer();
    server.on('upgrade', streams.handleUpgrade);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const caller = await SimulatedCaller.dial({ url: `ws://127.0.0.1:${port}/media`, clock: rig.clock });
      await caller.closed;
      expect(errors).toMatchObject([{ code: 'twilio_session_not_phone_ready', fatal: true }]);
      expect(String((errors[0] as { message: string }).message)).toContain("outputAudioFormat: 'g711_ulaw'");
      expect(sessions[0]?.status).toBe('closed');
    } finally {
      await streams.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('a message that is not Media Streams JSON is an error event; the call goes on', async () => {
    const rig = await phoneRig();
    const socket = new WebSocket(rig.url);
    await new Promise((resolve) => socket.once('open', resolve));
    const call = rig.calls[0];
    const errors: string[] = [];
    call?.on('error', (event) => errors.push(event.code));
    socket.send('not json');
    socket.send(JSON.stringify({ event: 'media', streamSid: 'MZ1' }));
    socket.send(JSON.stringify({ event: 'future_event', streamSid: 'MZ1' }));
    socket.send(JSON.stringify({ event: 'dtmf', streamSid: 'MZ1', dtmf: { digit: '#' } }));
    const digits: string[] = [];
    call?.on('dtmf', (event) => digits.push(event.digit));
    await new Promise<void>((resolve) => {
      const check = () => (digits.length > 0 ? resolve() : setImmediate(check));
      check();
    });
    expect(errors).toEqual(['twilio_invalid_message', 'twilio_invalid_message']);
    expect(digits).toEqual(['#']);
    socket.close();
    expect(await call?.ended).toBe('socket_closed');
  });
});

describe('mounting on an HTTP server', () => {
  test('takes upgrades to its path only, and refuses what authorize refuses with 403', async () => {
    const rig = await phoneRig();
    const verifier = new TwilioWebhookVerifier({ authToken: 'tw-secret' });
    const streams = new TwilioMediaStreamServer({
      path: '/media',
      session: () => {
        throw new Error('not reached');
      },
      authorize: (request) =>
        verifier.check({
          url: `wss://phone.example.com${request.url}`,
          signature: request.headers['x-twilio-signature'],
        }),
    });
    const server = createServer();
    const others: string[] = [];
    server.on('upgrade', (request, socket, head) => {
      if (!streams.handleUpgrade(request, socket, head)) {
        others.push(String(request.url));
        socket.destroy();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const base = `ws://127.0.0.1:${port}`;
      await expect(SimulatedCaller.dial({ url: `${base}/other`, clock: rig.clock })).rejects.toThrow();
      expect(others).toEqual(['/other']);
      await expect(SimulatedCaller.dial({ url: `${base}/media`, clock: rig.clock })).rejects.toThrow(
        /HTTP 403/,
      );
      const wrong = twilioSignature('another-secret', 'wss://phone.example.com/media');
      await expect(
        SimulatedCaller.dial({
          url: `${base}/media`,
          clock: rig.clock,
          headers: { 'X-Twilio-Signature': wrong },
        }),
      ).rejects.toThrow(/HTTP 403/);
      const signed = twilioSignature('tw-secret', 'wss://phone.example.com/media');
      const caller = await SimulatedCaller.dial({
        url: `${base}/media`,
        clock: rig.clock,
        headers: { 'X-Twilio-Signature': signed },
      });
      await caller.hangUp();
    } finally {
      await streams.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('one call by hand (TwilioCall on a socket the app accepted)', () => {
  test('session.interrupt() sends clear before it returns: in the same turn as the cancel', async () => {
    const rig = await phoneRig();
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => wss.once('listening', resolve));
    const session = new RealtimeSession(new Agent({ name: 'A', instructions: 'Talk.' }), {
      model: new OpenAIRealtimeModel({ apiKey: 'sk-test', url: rig.sim.url }),
      clock: rig.clock,
      playbackTracker: new ReportedPlaybackTracker(),
      config: { inputAudioFormat: 'g711_ulaw', outputAudioFormat: 'g711_ulaw', turnDetection: null },
      reconnect: false,
    });
    const sent: string[] = [];
    const calls: TwilioCall[] = [];
    wss.on('connection', (ws) => {
      const send = ws.send.bind(ws);
      ws.send = ((data: string, ...rest: never[]) => {
        sent.push(JSON.parse(data).event);
        return send(data, ...rest);
      }) as typeof ws.send;
      calls.push(new TwilioCall(ws, session, { clock: rig.clock }));
    });
    try {
      const { port } = wss.address() as AddressInfo;
      rig.sim.script({ type: 'message', text: 'A long answer.', audioMs: 4000 });
      const caller = await SimulatedCaller.dial({ url: `ws://127.0.0.1:${port}`, clock: rig.clock });
      await caller.until(() => session.status === 'connected');
      session.sendMessage('Talk to me.');
      await caller.until((c) => c.heardBytes >= 500 * 8);
      expect(sent).not.toContain('clear');
      session.interrupt();
      expect(sent.at(-1)).toBe('clear');
      await caller.until((c) => c.clears === 1);
      await caller.hangUp();
      expect(await calls[0]?.ended).toBe('stop');
      expect(session.status).toBe('closed');
    } finally {
      await session.close();
      await new Promise((resolve) => wss.close(resolve));
    }
  });

  test('unknown options and a bad clock fail when the call is made, naming what to pass', async () => {
    const rig = await phoneRig();
    const session = new RealtimeSession(new Agent({ name: 'A' }), {
      model: new OpenAIRealtimeModel({ apiKey: 'sk-test', url: rig.sim.url }),
      playbackTracker: new ReportedPlaybackTracker(),
    });
    const socket = new WebSocket('ws://127.0.0.1:9', { autoPong: false });
    socket.on('error', () => {});
    expect(() => new TwilioCall(socket, session, { dtmfMesage: () => '' } as never)).toThrow(
      expect.objectContaining({ code: 'unknown_option', message: expect.stringContaining('dtmfMessage') }),
    );
    expect(() => new TwilioCall(socket, session, { clock: {} as never })).toThrow(/clock must implement/);
    expect(() => new TwilioMediaStreamServer({ path: 'media', session: () => session })).toThrow(
      /path starting with/,
    );
    socket.terminate();
  });
});
