import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Agent,
  type Clock,
  MemorySession,
  RealtimeSession,
  type RealtimeSessionEvent,
  type RealtimeTurnMessage,
  ReportedPlaybackTracker,
  tool,
} from '@parley/core';
import { OpenAIRealtimeModel } from '@parley/openai';
import {
  FastForwardClock,
  type RealtimeSimulator,
  silenceAudio,
  speechAudio,
  startRealtimeSimulator,
  toSessionAudio,
} from '@parley/simulator';
import {
  type MediaStreamStart,
  type TwilioCall,
  type TwilioCallOptions,
  TwilioMediaStreamServer,
} from '@parley/twilio';
import { afterEach } from 'vitest';
import { z } from 'zod';

const RECORDED = [
  'tool_done',
  'dtmf',
  'audio_started',
  'audio_interrupted',
  'response_started',
  'response_done',
  'turn_done',
  'connection_status',
  'error',
] as const;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** µ-law speech the simulator's VAD hears, then the silence that ends the caller's turn. */
export function callerSays(text: string, durationMs = 400): Uint8Array {
  const pcm = Buffer.concat([speechAudio(text, { durationMs }), silenceAudio(400)]);
  return toSessionAudio(pcm, { type: 'audio/pcmu' });
}

export const weatherCalls: string[] = [];

export const getWeather = tool({
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => {
    weatherCalls.push(city);
    return `Sunny and 21 °C in ${city}`;
  },
});

export interface PhoneRig {
  readonly sim: RealtimeSimulator;
  readonly clock: Clock;
  /** The `ws://` URL of the Media Streams endpoint. */
  readonly url: string;
  readonly streams: TwilioMediaStreamServer;
  readonly calls: TwilioCall[];
  readonly sessions: RealtimeSession[];
  readonly starts: MediaStreamStart[];
  /** Every session event of every call, in order. */
  readonly events: RealtimeSessionEvent[];
  readonly memory: MemorySession;
}

/**
 * An HTTP server on loopback with a Media Streams endpoint at `/media` whose calls run a real `RealtimeSession` on
 * `OpenAIRealtimeModel` against the Realtime simulator, everything on one virtual clock; closed after the test.
 */
export async function phoneRig(options: TwilioCallOptions = {}): Promise<PhoneRig> {
  const clock = new FastForwardClock();
  const sim = await startRealtimeSimulator({ clock });
  const memory = new MemorySession();
  const calls: TwilioCall[] = [];
  const sessions: RealtimeSession[] = [];
  const starts: MediaStreamStart[] = [];
  const events: RealtimeSessionEvent[] = [];
  const agent = new Agent({ name: 'Phone', instructions: 'Answer the phone.', tools: [getWeather] });
  const streams = new TwilioMediaStreamServer({
    path: '/media',
    clock,
    ...options,
    session: (start) => {
      starts.push(start);
      const session = new RealtimeSession(agent, {
        model: new OpenAIRealtimeModel({ apiKey: 'sk-test-twilio', url: sim.url }),
        clock,
        playbackTracker: new ReportedPlaybackTracker(),
        config: {
          inputAudioFormat: 'g711_ulaw',
          outputAudioFormat: 'g711_ulaw',
          turnDetection: { silenceDurationMs: 300 },
        },
        memory,
        reconnect: false,
      });
      for (const type of RECORDED) session.on(type, (event) => events.push(event));
      sessions.push(session);
      return session;
    },
    onCall: (call) => calls.push(call),
  });
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (request, socket, head) => {
    if (!streams.handleUpgrade(request, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  cleanups.push(async () => {
    await streams.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await sim.close();
  });
  return {
    sim,
    clock,
    url: `ws://127.0.0.1:${port}/media`,
    streams,
    calls,
    sessions,
    starts,
    events,
    memory,
  };
}

export function ofType<T extends RealtimeSessionEvent['type']>(
  events: readonly RealtimeSessionEvent[],
  type: T,
): Extract<RealtimeSessionEvent, { type: T }>[] {
  return events.filter((event) => event.type === type) as Extract<RealtimeSessionEvent, { type: T }>[];
}

/** The heard milliseconds of a turn's message (partly heard messages carry them). */
export function heardMsOf(message: RealtimeTurnMessage | undefined): number | undefined {
  return message?.outcome === 'partial' ? message.heardMs : undefined;
}
