import type { Agent, Clock, RealtimeModel } from '@parley/core';
import { GeminiLiveModel } from '@parley/google';
import { OpenAILiveModel, OpenAIRealtimeModel } from '@parley/openai';
import { startGeminiSimulator, startLiveSimulator, startRealtimeSimulator } from '@parley/simulator';
import {
  CALLER_LINES,
  GEMINI_PHONE_SCRIPT,
  LIVE_PHONE_SCRIPT,
  PHONE_SCRIPT,
  pharmacyAgent,
  pharmacyBackend,
  pharmacyVoice,
} from './phone-script.js';

/** The simulated providers `parley phone` runs a call against. */
export const PHONE_PROVIDERS = ['openai', 'gemini', 'live'] as const;
export type PhoneProviderName = (typeof PHONE_PROVIDERS)[number];

/** A simulator started for one call, and the model pointed at it. */
export interface PhoneProvider {
  /** What the timeline calls it. */
  readonly label: string;
  /** How the line's µ-law reaches the provider. */
  readonly audioPath: string;
  readonly model: RealtimeModel;
  /** The agent that answers the phone. */
  readonly agent: Agent;
  /** The session's `delegate`, for a voice model that delegates instead of calling tools. */
  readonly delegate?: Agent;
  /**
   * Where the provider was told to cut the interrupted answer (`conversation.item.truncate`), in ms; `undefined` for a
   * provider that cannot truncate (the session keeps what was heard in its history and turn report).
   */
  readonly truncations: readonly number[] | undefined;
  close(): Promise<void>;
}

/** Starts the simulator of `name` on `clock`, scripted for the phone call, and the model that talks to it. */
export async function startPhoneProvider(name: PhoneProviderName, clock: Clock): Promise<PhoneProvider> {
  switch (name) {
    case 'openai': {
      const sim = await startRealtimeSimulator({ clock });
      const truncations: number[] = [];
      sim.onClientEvent(({ event }) => {
        const wire = event as { type: string; audio_end_ms?: number };
        if (wire.type === 'conversation.item.truncate') truncations.push(Number(wire.audio_end_ms));
      });
      sim.script(...PHONE_SCRIPT);
      return {
        label: 'OpenAI Realtime simulator',
        audioPath: 'G.711 µ-law passed through both ways',
        model: new OpenAIRealtimeModel({ apiKey: 'sk-simulator', url: sim.url }),
        agent: pharmacyAgent,
        truncations,
        close: () => sim.close(),
      };
    }
    case 'gemini': {
      const sim = await startGeminiSimulator({ clock });
      sim.respondWith(...GEMINI_PHONE_SCRIPT);
      for (const line of CALLER_LINES) sim.hear(line);
      return {
        label: 'Gemini Live simulator',
        audioPath: "µ-law 8 kHz ↔ PCM16 16 kHz in / 24 kHz out, converted by the session's AudioConverter",
        model: new GeminiLiveModel({ apiKey: 'test-key', baseUrl: sim.wsBaseUrl, clock, keepalive: false }),
        agent: pharmacyAgent,
        truncations: undefined,
        close: () => sim.close(),
      };
    }
    case 'live': {
      // G.711 carries no words: the simulated model hears the caller's lines in order.
      const lines = [...CALLER_LINES];
      const sim = await startLiveSimulator({
        clock,
        interimTranscriptMs: 200,
        transcribe: () => lines.shift() ?? '',
      });
      sim.script(...LIVE_PHONE_SCRIPT);
      return {
        label: 'GPT-Live simulator',
        audioPath: 'G.711 µ-law passed through both ways (audio/pcmu on the primary WebSocket)',
        model: new OpenAILiveModel({ apiKey: 'sk-simulator', url: sim.url, clock, keepalive: false }),
        agent: pharmacyVoice,
        delegate: pharmacyBackend(),
        truncations: undefined,
        close: () => sim.close(),
      };
    }
  }
}
