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
import { g711ToPcm16, silenceAudio, speechAudio, toSessionAudio } from '@parley/simulator';
import { type TwilioCall, TwilioMediaStreamServer } from '@parley/twilio';
import { SimulatedCaller } from '@parley/twilio/testing';
import { encodeWav } from '../audio/wav.js';
import type { Output } from '../output.js';
import { callSummaryParts, followCall } from './call-timeline.js';
import { type PhoneProviderName, startPhoneProvider } from './phone-provider.js';
import { CALLER_LINES, keyMessage } from './phone-script.js';

/** Options of {@link runPhoneCall}. */
export interface PhoneCallOptions {
  /** Where the call as the caller heard it is written (WAV, PCM16 8 kHz mono). Default: not written. */
  wavPath?: string;
  /** The simulated provider behind the session. Default `openai`. */
  provider?: PhoneProviderName;
  /**
   * The clock everything runs on: the simulator's pacing, the caller's real-time audio, the session's timers. Default:
   * the system clock (the call takes its real duration); tests pass a `FastForwardClock`.
   */
  clock?: Clock;
}

/** What happened on the call. */
export interface PhoneCallSummary {
  toolCalls: string[];
  /**
   * Milliseconds of the interrupted answer the caller had heard (Twilio's last echoed mark) when they started to
   * barge in; what the session counted as heard when the answer stopped (`audio_interrupted.heardMs`); and where the
   * provider was told to cut it (`undefined` for a provider that cannot truncate).
   */
  heardAtBargeInMs: number;
  heardAtInterruptionMs: number | undefined;
  truncatedAtMs: number | undefined;
  /** The keys the caller pressed, as the session reported them to the app. */
  digits: string[];
  turns: { outcome: string; transcript: string }[];
  endReason: string;
  /** The agent's audio as the caller heard it: µ-law 8 kHz on a Twilio line, PCM16 24 kHz on the SIP path. */
  heardAudio: Uint8Array;
}

const BYTES_PER_MS = 8;

function utterance(text: string): Uint8Array {
  const pcm = Buffer.concat([speechAudio(text, { durationMs: 900 }), silenceAudio(500)]);
  return toSessionAudio(pcm, { type: 'audio/pcmu' });
}

/**
 * A phone call end to end on this machine: a simulated caller dials a Twilio Media Streams endpoint on 127.0.0.1,
 * the bridge runs a `RealtimeSession` in µ-law 8 kHz against an embedded simulator: OpenAI Realtime (G.711 passed
 * through) or Gemini Live (converted by the session). The caller asks, the agent calls a tool and answers; the caller
 * barges in (the answer is cut at Twilio's last echoed mark), presses a key, and hangs up. Everything is closed on
 * every path.
 */
export async function runPhoneCall(
  output: Output,
  options: PhoneCallOptions = {},
): Promise<PhoneCallSummary> {
  const clock = options.clock ?? systemClock;
  const provider = await startPhoneProvider(options.provider ?? 'openai', clock);
  const events: RealtimeSessionEvent[] = [];
  /** The agent's messages the caller got audio of, in order. */
  const spoken = new Set<string>();
  let caller: SimulatedCaller | undefined;
  const streams = new TwilioMediaStreamServer({
    path: '/media',
    clock,
    dtmfMessage: keyMessage,
    session: () => {
      const session = new RealtimeSession(provider.agent, {
        model: provider.model,
        ...(provider.delegate && { delegate: provider.delegate }),
        clock,
        playbackTracker: new ReportedPlaybackTracker(),
        config: {
          inputAudioFormat: 'g711_ulaw',
          outputAudioFormat: 'g711_ulaw',
          turnDetection: { silenceDurationMs: 400 },
        },
        reconnect: false,
      });
      followCall(session, output, (event) => events.push(event));
      session.on('audio', (event) => spoken.add(event.itemId));
      return session;
    },
  });
  const server = createServer((_request, response) => response.writeHead(404).end());
  server.on('upgrade', (request, socket, head) => {
    if (!streams.handleUpgrade(request, socket, head)) socket.destroy();
  });
  try {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    output.line(
      `Parley phone: a simulated caller → Twilio Media Streams bridge → RealtimeSession → ${provider.label}`,
    );
    output.line(`line       ☎ ws://127.0.0.1:${port}/media (µ-law 8 kHz, 20 ms frames, a mark after each)`);
    output.line(`audio      ${provider.audioPath}`);
    caller = await SimulatedCaller.dial({
      url: `ws://127.0.0.1:${port}/media`,
      clock,
      customParameters: { from: '+15550100' },
    });
    const live = caller;
    const call = [...streams.calls][0] as TwilioCall;
    call.on('dtmf', (event) => {
      output.line(`caller     # pressed ${event.digit} → the model hears "${keyMessage(event.digit)}"`);
    });

    output.line(`caller     🎙 "${CALLER_LINES[0]}"`);
    live.say(utterance(CALLER_LINES[0]));
    // The answer: the first message Twilio's marks say the caller has heard 2 s of.
    const heardOf = (itemId: string) => call.session?.playback.playedMs(itemId) ?? 0;
    const answer = () => [...spoken].find((itemId) => heardOf(itemId) >= 2000);
    await live.until(() => answer() !== undefined);
    const heardAtBargeIn = heardOf(answer() as string);
    output.line(
      `caller     ✋ barges in: "${CALLER_LINES[1]}" (Twilio has echoed the marks up to ${heardAtBargeIn} ms of the answer)`,
    );
    live.say(utterance(CALLER_LINES[1]));
    const truncations = provider.truncations;
    const interrupted = () => events.find((e) => e.type === 'audio_interrupted');
    await live.until((c) => c.clears === 1 && interrupted() !== undefined && (truncations?.length ?? 1) >= 1);
    const heardAtInterruption = (interrupted() as { heardMs?: number }).heardMs;
    output.line(
      truncations === undefined
        ? `line       ⏹ clear sent; the caller heard ${heardAtInterruption} ms (the last acknowledged mark): the provider cannot truncate, the session keeps what was heard`
        : `line       ⏹ clear sent; the answer is truncated at ${truncations[0]} ms (the last acknowledged mark)`,
    );
    // The reply to the barge-in: a response that started after it, heard to its end.
    const before = new Set(events.flatMap((e) => (e.type === 'response_started' ? [e.responseId] : [])));
    await live.until(() =>
      events.some((e) => e.type === 'turn_done' && !before.has(e.responseId) && e.outcome === 'full'),
    );
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
    return {
      ...callSummaryParts(events),
      heardAtBargeInMs: heardAtBargeIn,
      heardAtInterruptionMs: heardAtInterruption,
      truncatedAtMs: truncations?.[0],
      // The keys the session reported to the app (its `dtmf` events from the line).
      digits: events.flatMap((e) => (e.type === 'dtmf' && e.source === 'line' ? [e.digit] : [])),
      endReason,
      heardAudio,
    };
  } finally {
    caller?.drop();
    await streams.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await provider.close();
  }
}
