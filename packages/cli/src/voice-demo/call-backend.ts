import { PCM16_BYTES_PER_MS, type RealtimeSession } from '@parley/core';
import {
  type Hold,
  type RealtimeSimulator,
  type SimulatorConnection,
  speechAudio,
  toSessionAudio,
} from '@parley/simulator';
import type { AudioMeter } from './audio-meter.js';

/** A session audio format as the simulator's wire names it. */
export type WireAudioFormat = Parameters<typeof toSessionAudio>[1];

/**
 * What differs between the call on the embedded simulator and on a real service: how the caller asks (the
 * simulator hears synthesized speech; a real model hears none, so the caller types), where the caller barges in,
 * and what of the provider's side can be checked (the wire and the model's context, on the simulator only).
 */
export interface CallBackend {
  /** The provider, as the timeline names it. */
  readonly label: string;
  /** Called once the session is connected. */
  connected(): Promise<void>;
  /** Sends `question` as the caller; returns the timeline's description of it, and whether it was spoken. */
  ask(session: RealtimeSession, question: string): { description: string; spoken: boolean };
  /**
   * Resolves with the interrupted message's id once the caller has heard enough of it to barge in (the audio the
   * provider sent so far arrived), or `undefined` when the answer ended first.
   */
  midAnswer(responseId: string, meter: AudioMeter, ended: Promise<unknown>): Promise<string | undefined>;
  /** Subscribes now; resolves with the `audio_end_ms` of the provider's truncation, when the wire is observable. */
  truncation(): Promise<number | undefined>;
  /** Whether `words` are in the model's context, when it is observable. */
  inModelContext(words: string): boolean | undefined;
}

/**
 * The embedded simulator: spoken questions (in the session's input `format`; each one is pushed to `asked`, which
 * the demo's transcriber reads where G.711 loses the text the speech embeds), a barge-in at a hold, the wire and the
 * context checked.
 */
export function simulatorBackend(
  sim: RealtimeSimulator,
  hold: Hold,
  format: WireAudioFormat = { type: 'audio/pcm', rate: 24000 },
  asked: string[] = [],
): CallBackend {
  let server: SimulatorConnection | undefined;
  const connection = () => {
    if (!server) throw new Error('The simulator has no connection yet.');
    return server;
  };
  return {
    label: `OpenAIRealtimeModel → ${new URL(sim.url).host} (the simulator)`,
    async connected() {
      server = await sim.waitForConnection();
    },
    ask(session, question) {
      const pcm = speechAudio(question);
      asked.push(question);
      session.sendAudio(toSessionAudio(pcm, format), { commit: true });
      return {
        description: `🎙 ${pcm.byteLength / PCM16_BYTES_PER_MS} ms of speech, committed`,
        spoken: true,
      };
    },
    async midAnswer(_responseId, meter) {
      await hold.reached;
      const itemId = connection().conversation.lastId ?? '';
      await meter.reached(itemId, connection().conversation.audioBytes(itemId).byteLength);
      return itemId;
    },
    async truncation() {
      return Number((await connection().waitForClientEvent('conversation.item.truncate')).audio_end_ms);
    },
    inModelContext(words) {
      const { conversation } = connection();
      return conversation.items.some((item) => conversation.textOf(item).includes(words));
    },
  };
}

/** A real service: typed questions (no speech synthesizer offline), a barge-in once `heardMs` of audio arrived. */
export function serviceBackend(label: string, heardMs: number): CallBackend {
  return {
    label,
    async connected() {},
    ask(session, question) {
      session.sendMessage(question);
      return {
        description: `⌨ "${question}" (typed: the demo has no speech synthesizer for a real model)`,
        spoken: false,
      };
    },
    async midAnswer(responseId, meter, ended) {
      const enough = meter.responseReached(responseId, heardMs * meter.bytesPerMs);
      return Promise.race([enough, ended.then(() => undefined)]);
    },
    async truncation() {
      return undefined;
    },
    inModelContext() {
      return undefined;
    },
  };
}
