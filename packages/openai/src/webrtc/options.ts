import type { Clock } from '@parley/core';
import { invalidOption, optionKeys, positiveMs, resolveClockOption } from '@parley/core/internal';
import {
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_DISCONNECTED_GRACE_MS,
  DEFAULT_ICE_GATHERING_TIMEOUT_MS,
} from '../constants.js';
import type { OpenAIRealtimeSessionConfig } from '../realtime/options.js';
import { type ApiKeySource, resolveApiKeySource } from '../shared/api-key.js';
import { endpointURL } from '../shared/base-url.js';
import { sessionConfigOption } from '../shared/option-checks.js';
import type { MediaStreamTrackLike, PeerConnectionFactory } from './peer-connection.js';

/** Options of `OpenAIRealtimeWebRTCModel`. */
export interface OpenAIRealtimeWebRTCModelOptions {
  /**
   * The key the browser starts the call with: an ephemeral `ek_` key your server minted with `createClientSecret`
   * (fetch it here, e.g. `() => fetch('/session').then((r) => r.json()).then((s) => s.value)`, so each call gets a fresh one).
   */
  clientSecret: string | (() => string | Promise<string>);
  /** The API root; the offer goes to `POST {baseURL}/realtime/calls`. Default `https://api.openai.com/v1`. */
  baseURL?: string;
  /** GA session fields every `session.update` carries (as for `OpenAIRealtimeModel`). */
  sessionConfig?: OpenAIRealtimeSessionConfig;
  /**
   * The microphone track sent to the service (e.g. from `getUserMedia({ audio: true })`). Without it the call
   * receives audio only.
   */
  inputTrack?: MediaStreamTrackLike;
  /**
   * Called with the assistant's voice, the remote audio track (and its streams), each time a call is set up (a
   * reconnect is a new call): play it, e.g. `audio.srcObject = new MediaStream([track])`. The service stops it at an
   * interruption.
   */
  onRemoteAudio?: (track: MediaStreamTrackLike, streams: readonly unknown[]) => void;
  /** Makes each call's peer connection. Default `new globalThis.RTCPeerConnection()` (browsers); Node passes werift's. */
  createPeerConnection?: PeerConnectionFactory;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  clock?: Clock;
  /** SDP exchange, data channel open and session confirmed. Default 30 000 ms. */
  connectTimeoutMs?: number;
  /** Default 5 000 ms. */
  closeTimeoutMs?: number;
  /** The offer waits at most this long for ICE candidates. Default 3 000 ms. */
  iceGatheringTimeoutMs?: number;
  /** A peer `disconnected` this long counts as lost (`connection_status: disconnected`). Default 5 000 ms. */
  disconnectedGraceMs?: number;
}

export interface ResolvedWebRTCOptions {
  key: ApiKeySource;
  callsURL: string;
  sessionConfig: OpenAIRealtimeSessionConfig;
  inputTrack: MediaStreamTrackLike | undefined;
  onRemoteAudio: OpenAIRealtimeWebRTCModelOptions['onRemoteAudio'];
  createPeerConnection: PeerConnectionFactory | undefined;
  fetch: typeof globalThis.fetch | undefined;
  clock: Clock;
  connectTimeoutMs: number;
  closeTimeoutMs: number;
  iceGatheringTimeoutMs: number;
  disconnectedGraceMs: number;
}

const OPTIONS = optionKeys<OpenAIRealtimeWebRTCModelOptions>('OpenAIRealtimeWebRTCModelOptions', {
  clientSecret: true,
  baseURL: true,
  sessionConfig: true,
  inputTrack: true,
  onRemoteAudio: true,
  createPeerConnection: true,
  fetch: true,
  clock: true,
  connectTimeoutMs: true,
  closeTimeoutMs: true,
  iceGatheringTimeoutMs: true,
  disconnectedGraceMs: true,
});

/** Validates the options before any network access; throws a `UserError` (`invalid_option`). */
export function resolveWebRTCOptions(options: OpenAIRealtimeWebRTCModelOptions): ResolvedWebRTCOptions {
  if (options === null || typeof options !== 'object') {
    throw invalidOption('OpenAIRealtimeWebRTCModel options must be an object.');
  }
  OPTIONS.check(options);
  if (options.clientSecret === undefined) {
    throw invalidOption(
      'OpenAIRealtimeWebRTCModel needs clientSecret: an ephemeral key your server mints with createClientSecret ' +
        '(or a function that fetches one).',
    );
  }
  const key = resolveApiKeySource(
    typeof options.clientSecret === 'function'
      ? { apiKeyProvider: options.clientSecret }
      : { apiKey: options.clientSecret },
  );
  for (const [name, value] of [
    ['createPeerConnection', options.createPeerConnection],
    ['fetch', options.fetch],
    ['onRemoteAudio', options.onRemoteAudio],
  ] as const) {
    if (value !== undefined && typeof value !== 'function')
      throw invalidOption(`${name} must be a function.`);
  }
  const sessionConfig = sessionConfigOption(options.sessionConfig);
  return {
    key,
    callsURL: endpointURL(options.baseURL, '/realtime/calls'),
    sessionConfig,
    inputTrack: options.inputTrack,
    onRemoteAudio: options.onRemoteAudio,
    createPeerConnection: options.createPeerConnection,
    fetch: options.fetch,
    clock: resolveClockOption(options.clock, invalidOption),
    connectTimeoutMs: positiveMs(options.connectTimeoutMs, 'connectTimeoutMs', DEFAULT_CONNECT_TIMEOUT_MS),
    closeTimeoutMs: positiveMs(options.closeTimeoutMs, 'closeTimeoutMs', DEFAULT_CLOSE_TIMEOUT_MS),
    iceGatheringTimeoutMs: positiveMs(
      options.iceGatheringTimeoutMs,
      'iceGatheringTimeoutMs',
      DEFAULT_ICE_GATHERING_TIMEOUT_MS,
    ),
    disconnectedGraceMs: positiveMs(
      options.disconnectedGraceMs,
      'disconnectedGraceMs',
      DEFAULT_DISCONNECTED_GRACE_MS,
    ),
  };
}
