import type { AddressInfo } from 'node:net';
import {
  Agent,
  RealtimeSession,
  type RealtimeSessionEvent,
  type RealtimeSessionEventOf,
  ReportedPlaybackTracker,
} from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAILiveModel } from '@parley/openai';
import { afterEach, expect, test } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';

// GPT-Live sends no event when the user talks over its voice: it stops speaking by itself, and the user's words
// (`session.input_transcript.delta`, placed on the session timeline) are the only sign. The service's wire is
// scripted here, so that what arrives when is the test's choice.
let server: WebSocketServer | undefined;
let session: RealtimeSession | undefined;
afterEach(async () => {
  await session?.close();
  await new Promise((resolve) => server?.close(resolve));
  session = server = undefined;
});

type Wire = Record<string, unknown>;

async function livePeer(): Promise<{ url: string; received: Wire[]; send: Promise<(event: Wire) => void> }> {
  const received: Wire[] = [];
  let ready: (send: (event: Wire) => void) => void = () => {};
  const send = new Promise<(event: Wire) => void>((resolve) => {
    ready = resolve;
  });
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server?.once('listening', resolve));
  server.on('connection', (ws: WebSocket) => {
    const emit = (event: Wire) => ws.send(JSON.stringify(event));
    ws.on('message', (data) => {
      const event = JSON.parse(String(data)) as Wire;
      received.push(event);
      if (event.type === 'session.start') {
        emit({
          type: 'session.started',
          event_id: 'sev_0',
          session: { id: 'live_barge', expires_at: 1_900_000_000, model: 'gpt-live-1', status: 'active' },
        });
        ready(emit);
      }
      if (event.type === 'session.close') {
        emit({ type: 'session.closed', event_id: 'sev_end', reason: 'close_requested' });
        ws.close(1000);
      }
    });
  });
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/v1/live/sessions`, received, send };
}

/** 100 ms of the voice (PCM16 24 kHz, not silent). */
const voice = { type: 'session.output_audio.delta', delta: Buffer.alloc(4800, 0x11).toString('base64') };
const said = (delta: string, startMs: number) => ({
  type: 'session.output_transcript.delta',
  event_id: `sev_o${startMs}`,
  delta,
  start_ms: startMs,
  end_ms: startMs + 200,
});
const heard = (delta: string, startMs: number) => ({
  type: 'session.input_transcript.delta',
  event_id: `sev_i${startMs}`,
  delta,
  start_ms: startMs,
  end_ms: startMs + 200,
});

async function connected() {
  const peer = await livePeer();
  const events: RealtimeSessionEvent[] = [];
  session = new RealtimeSession(new Agent({ name: 'Voice' }), {
    model: new OpenAILiveModel({
      apiKey: 'sk-test',
      url: peer.url,
      clock: new ManualClock(),
      keepalive: false,
    }),
    playbackTracker: new ReportedPlaybackTracker(),
  });
  for (const type of [
    'response_started',
    'response_done',
    'audio_interrupted',
    'turn_done',
    'audio',
  ] as const) {
    session.on(type, (event) => events.push(event));
  }
  await session.connect();
  const send = await peer.send;
  const until = async <T extends RealtimeSessionEvent['type']>(
    type: T,
    match: (e: RealtimeSessionEventOf<T>) => boolean = () => true,
  ): Promise<RealtimeSessionEventOf<T>> => {
    for (;;) {
      const found = events.find((e): e is RealtimeSessionEventOf<T> => e.type === type && match(e as never));
      if (found) return found;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { peer, send, events, until, live: session };
}

test('words said over the voice stop what plays, cut where the listener stopped hearing; what the voice says next is a new response', async () => {
  const { send, events, until, live } = await connected();
  send(said('The forecast for tomorrow is sunny', 1000));
  for (let i = 0; i < 5; i++) send(voice);
  const first = await until('audio', (e) => events.filter((x) => x.type === 'audio').indexOf(e) === 4);
  live.playback.played(first.itemId, 300);
  send(heard('Wait', 1400));
  const interrupted = await until('audio_interrupted');
  expect(interrupted).toMatchObject({ responseId: first.responseId, itemId: first.itemId, heardMs: 300 });
  expect(await until('response_done')).toMatchObject({
    responseId: first.responseId,
    status: 'cancelled',
    reason: 'user_turn',
  });
  expect((await until('turn_done')).outcome).toBe('partial');
  // The voice goes on (GPT-Live decides that): a new response, played.
  send(voice);
  const next = await until('response_started', (e) => e.responseId !== first.responseId);
  await until('audio', (e) => e.responseId === next.responseId);
  expect(events.filter((e) => e.type === 'audio_interrupted')).toHaveLength(1);
});

test('words said before the voice began (transcribed late) interrupt nothing', async () => {
  const { send, events, until } = await connected();
  send(said('Sure, here it is', 2000));
  send(voice);
  const first = await until('audio');
  send(heard(' please', 1800));
  send(voice);
  await until('audio', (e) => e !== first);
  expect(events.filter((e) => e.type === 'audio_interrupted' || e.type === 'response_done')).toEqual([]);
});

test('session.interrupt() ends the response at once, with nothing on the wire (no GPT-Live command stops the voice)', async () => {
  const { peer, send, until, live } = await connected();
  send(said('Let me tell you a long story', 500));
  send(voice);
  const first = await until('audio');
  const sent = peer.received.length;
  live.interrupt();
  expect(await until('response_done')).toMatchObject({
    responseId: first.responseId,
    status: 'cancelled',
    reason: 'client_cancelled',
  });
  expect(await until('audio_interrupted')).toMatchObject({ heardMs: 0 });
  expect(peer.received.slice(sent).filter((e) => e.type !== 'session.input_audio.append')).toEqual([]);
});
