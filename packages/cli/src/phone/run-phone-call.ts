import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Clock,
  RealtimeSession,
  type RealtimeSessionEvent,
  ReportedPlaybackTracker,
  systemClock,
} from '@parley/core';
import { OpenAIRealtimeModel } from '@parley/openai';
import {
  g711ToPcm16,
  silenceAudio,
  speechAudio,
  startRealtimeSimulator,
  toSessionAudio,
} from '@parley/simulator';
import { type TwilioCall, TwilioMediaStreamServer } from '@parley/twilio';
import { SimulatedCaller } from '@parley/twilio/testing';
import { encodeWav } from '../audio/wav.js';
import type { Output } from '../output.js';
import { CALLER_LINES, PHONE_SCRIPT, pharmacyAgent } from './phone-script.js';

/** Options of {@link runPhoneCall}. */
export interface PhoneCallOptions {
  /** Where the call as the caller heard it is written (WAV, PCM16 8 kHz mono). Default: not written. */
  wavPath?: string;
  /**
   * The clock everything runs on: the simulator's pacing, the caller's real-time audio, the session's timers. Default:
   * the system clock (the call takes its real duration); tests pass a `FastForwardClock`.
   */
  clock?: Clock;
}

/** What happened on the call. */
export interface PhoneCallSummary {
  toolCalls: string[];
  /** Milliseconds of the interrupted answer the caller heard (Twilio's last echoed mark), and where it was truncated. */
  heardAtBargeInMs: number;
  truncatedAtMs: number | undefined;
  digits: string[];
  turns: { outcome: string; transcript: string }[];
  endReason: string;
  /** The agent's audio as the caller heard it (µ-law 8 kHz). */
  heardAudio: Uint8Array;
}

const BYTES_PER_MS = 8;

function utterance(text: string): Uint8Array {
  const pcm = Buffer.concat([speechAudio(text, { durationMs: 900 }), silenceAudio(500)]);
  return toSessionAudio(pcm, { type: 'audio/pcmu' });
}

/**
 * A phone call end to end on this machine: a simulated caller dials a Twilio Media Streams endpoint on 127.0.0.1,
 * the bridge runs a `RealtimeSession` on `OpenAIRealtimeModel` against the embedded Realtime simulator (G.711 µ-law
 * both ways). The caller asks, the agent calls a tool and answers; the caller barges in (the answer is truncated at
 * Twilio's last echoed mark), presses a key, and hangs up. Everything is closed on every path.
 */
export async function runPhoneCall(
  output: Output,
  options: PhoneCallOptions = {},
): Promise<PhoneCallSummary> {
  const clock = options.clock ?? systemClock;
  const sim = await startRealtimeSimulator({ clock });
  const events: RealtimeSessionEvent[] = [];
  const truncates: number[] = [];
  let caller: SimulatedCaller | undefined;
  const streams = new TwilioMediaStreamServer({
    path: '/media',
    clock,
    dtmfMessage: (digit) => `The caller pressed ${digit}.`,
    session: () => {
      const session = new RealtimeSession(pharmacyAgent, {
        model: new OpenAIRealtimeModel({ apiKey: 'sk-simulator', url: sim.url }),
        clock,
        playbackTracker: new ReportedPlaybackTracker(),
        config: {
          inputAudioFormat: 'g711_ulaw',
          outputAudioFormat: 'g711_ulaw',
          turnDetection: { silenceDurationMs: 400 },
        },
        reconnect: false,
      });
      for (const type of ['tool_done', 'audio_interrupted', 'turn_done'] as const) {
        session.on(type, (event) => events.push(event));
      }
      session.on('tool_started', (event) => output.line(`agent      ⚙ ${event.name}(${event.arguments})`));
      session.on('tool_done', (event) => output.line(`           ↳ ${event.output}`));
      session.on('turn_done', (event) => {
        if (event.transcript)
          output.line(
            `agent      🔊 "${event.transcript}" (${event.outcome === 'full' ? 'heard in full' : `${event.outcome}: as heard`})`,
          );
      });
      return session;
    },
  });
  const server = createServer((_request, response) => response.writeHead(404).end());
  server.on('upgrade', (request, socket, head) => {
    if (!streams.handleUpgrade(request, socket, head)) socket.destroy();
  });
  sim.onClientEvent(({ event }) => {
    const wire = event as { type: string; audio_end_ms?: number };
    if (wire.type === 'conversation.item.truncate') truncates.push(Number(wire.audio_end_ms));
  });
  try {
    sim.script(...PHONE_SCRIPT);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    output.line(
      'Parley phone: a simulated caller → Twilio Media Streams bridge → RealtimeSession → OpenAI Realtime simulator',
    );
    output.line(`line       ☎ ws://127.0.0.1:${port}/media (µ-law 8 kHz, 20 ms frames, a mark after each)`);
    caller = await SimulatedCaller.dial({
      url: `ws://127.0.0.1:${port}/media`,
      clock,
      customParameters: { from: '+15550100' },
    });
    const live = caller;
    const call = [...streams.calls][0] as TwilioCall;
    const digits: string[] = [];
    call.on('dtmf', (event) => {
      digits.push(event.digit);
      output.line(
        `caller     # pressed ${event.digit} → the model hears "The caller pressed ${event.digit}."`,
      );
    });

    output.line(`caller     🎙 "${CALLER_LINES[0]}"`);
    live.say(utterance(CALLER_LINES[0]));
    await live.until((c) => c.heardBytes >= 2000 * BYTES_PER_MS);
    const heardAtBargeIn = live.echoedMarks.at(-1)?.heardBytes ?? 0;
    output.line(
      `caller     ✋ barges in: "${CALLER_LINES[1]}" (Twilio has echoed the marks up to ${Math.floor(heardAtBargeIn / BYTES_PER_MS)} ms)`,
    );
    live.say(utterance(CALLER_LINES[1]));
    await live.until((c) => c.clears === 1 && truncates.length === 1);
    output.line(
      `line       ⏹ clear sent; the answer is truncated at ${truncates[0]} ms (the last acknowledged mark)`,
    );
    await live.until(() => events.filter((e) => e.type === 'turn_done').length >= 3);
    const beforeKey = live.heardBytes;
    live.pressDigit('1');
    await live.until((c) => c.heardBytes >= beforeKey + 1000 * BYTES_PER_MS);
    output.line('caller     📴 hangs up mid-answer');
    await live.hangUp();
    const endReason = await call.ended;
    const heardAudio = live.heardAudio;
    if (options.wavPath !== undefined) {
      await writeFile(options.wavPath, encodeWav(g711ToPcm16(heardAudio, 'audio/pcmu'), 8000));
      output.line(
        `The call as the caller heard it (${heardAudio.byteLength / BYTES_PER_MS} ms): ${options.wavPath}`,
      );
    }
    const turns = events.flatMap((e) =>
      e.type === 'turn_done' ? [{ outcome: e.outcome, transcript: e.transcript }] : [],
    );
    return {
      toolCalls: events.flatMap((e) => (e.type === 'tool_done' ? [e.name] : [])),
      heardAtBargeInMs: Math.floor(heardAtBargeIn / BYTES_PER_MS),
      truncatedAtMs: truncates[0],
      digits,
      turns,
      endReason,
      heardAudio,
    };
  } finally {
    caller?.drop();
    await streams.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await sim.close();
  }
}
