import {
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeCapabilities,
  type RealtimeCommand,
  type RealtimeConnection,
  type RealtimeConnectOptions,
  type RealtimeEvent,
  type RealtimeModel,
  type RealtimeSessionConfig,
} from '@parley/core';
import { brand } from '@parley/core/internal';
import { dataChannelSocket } from '@parley/transport';
import { OPENAI_REALTIME_CAPABILITIES } from '../realtime/capabilities.js';
import { OpenAIRealtimeConnection } from '../realtime/connection.js';
import { OpenAIRealtimeError } from '../realtime/errors.js';
import { assertBrowserKey } from '../realtime/handshake.js';
import { obtainApiKey } from '../shared/api-key.js';
import { iceGatheringDone } from './ice-gathering.js';
import {
  type OpenAIRealtimeWebRTCModelOptions,
  type ResolvedWebRTCOptions,
  resolveWebRTCOptions,
} from './options.js';
import {
  globalPeerConnectionFactory,
  type MediaStreamTrackLike,
  type PeerConnectionLike,
  type TrackEventLike,
} from './peer-connection.js';
import { postRealtimeCall } from './realtime-call-exchange.js';

/** The data channel OpenAI's Realtime and GPT-Live calls carry their JSON events on. */
export const OAI_EVENTS_CHANNEL = 'oai-events';

/**
 * What the Realtime service promises on a WebRTC call: what it promises on a WebSocket, and it plays the audio itself
 * (the remote track), so it also knows what was heard.
 */
export const OPENAI_REALTIME_WEBRTC_CAPABILITIES: Readonly<RealtimeCapabilities> = Object.freeze({
  ...OPENAI_REALTIME_CAPABILITIES,
  servicePlayback: true,
});

/**
 * One Realtime call over WebRTC: the Realtime codec on the `oai-events` data channel (the same connection class as
 * the WebSocket form), the microphone on the peer's audio sender, the assistant's voice on its remote track. The
 * service plays that track and knows what was heard: the connection declares `servicePlayback`.
 */
export class OpenAIRealtimeWebRTCConnection implements RealtimeConnection {
  static {
    brand(OpenAIRealtimeWebRTCConnection, 'openai.OpenAIRealtimeWebRTCConnection');
  }

  readonly #inner: OpenAIRealtimeConnection;
  /** The call's id (`rtc_…`): give it to your server to attach a sideband (`new OpenAIRealtimeModel({ callId })`). */
  readonly callId: string | undefined;
  /** The peer connection (for statistics, or to add tracks); closed with the connection. */
  readonly peerConnection: PeerConnectionLike;
  /**
   * The assistant's voice. In a browser: `audio.srcObject = new MediaStream([connection.remoteAudioTrack])` (or
   * `remoteStreams[0]`) and `audio.play()`; the service stops it at an interruption.
   */
  readonly remoteAudioTrack: MediaStreamTrackLike | undefined;
  /** The streams the remote track belongs to, as the peer reported them. */
  readonly remoteStreams: readonly unknown[];

  /** @internal */
  constructor(
    inner: OpenAIRealtimeConnection,
    call: { callId: string | undefined; peer: PeerConnectionLike; track: TrackEventLike | undefined },
  ) {
    this.#inner = inner;
    this.callId = call.callId;
    this.peerConnection = call.peer;
    this.remoteAudioTrack = call.track?.track;
    this.remoteStreams = call.track?.streams ?? [];
  }

  get status(): 'open' | 'closed' {
    return this.#inner.status;
  }

  get servicePlayback(): true {
    return true;
  }

  get expiresAt(): number | undefined {
    return this.#inner.expiresAt;
  }

  get confirmedConfig(): Readonly<RealtimeSessionConfig> {
    return this.#inner.confirmedConfig;
  }

  send(command: RealtimeCommand): void {
    this.#inner.send(command);
  }

  onEvent(listener: (event: RealtimeEvent) => void): () => void {
    return this.#inner.onEvent(listener);
  }

  /** Closes the data channel and the peer connection. Idempotent. */
  close(): Promise<void> {
    return this.#inner.close();
  }
}

/**
 * The OpenAI Realtime API over WebRTC, for browsers: the call starts with an ephemeral key minted by your server
 * (`createClientSecret`), the SDP offer goes to `POST /v1/realtime/calls`, events flow on the `oai-events` data
 * channel, the microphone and the assistant's voice on the peer's audio track. An interruption is a cancel plus
 * `output_audio_buffer.clear`: the service stops the audio and truncates the message where the listener stopped
 * hearing it.
 *
 * ```ts
 * const model = new OpenAIRealtimeWebRTCModel({
 *   clientSecret: () => fetch('/realtime-secret').then((r) => r.json()).then((s) => s.value),
 *   inputTrack: (await navigator.mediaDevices.getUserMedia({ audio: true })).getAudioTracks()[0],
 * });
 * ```
 */
export class OpenAIRealtimeWebRTCModel implements RealtimeModel {
  static {
    brand(OpenAIRealtimeWebRTCModel, 'openai.OpenAIRealtimeWebRTCModel');
  }

  readonly specificationVersion = REALTIME_SPECIFICATION_VERSION;
  readonly provider = 'openai';
  readonly modelId = 'gpt-realtime';
  readonly capabilities: RealtimeCapabilities = OPENAI_REALTIME_WEBRTC_CAPABILITIES;
  readonly #options: ResolvedWebRTCOptions;

  constructor(options: OpenAIRealtimeWebRTCModelOptions) {
    this.#options = resolveWebRTCOptions(options);
    // The runtime's own peer connection means a browser: it may only hold an ephemeral key.
    if (this.#options.createPeerConnection === undefined && typeof this.#options.key === 'string') {
      assertBrowserKey(this.#options.key);
    }
  }

  async connect(options: RealtimeConnectOptions): Promise<OpenAIRealtimeWebRTCConnection> {
    const settings = this.#options;
    const factory = settings.createPeerConnection ?? globalPeerConnectionFactory();
    if (factory === undefined) {
      throw new OpenAIRealtimeError(
        'realtime_webrtc_unavailable',
        'This runtime has no RTCPeerConnection. In Node, pass createPeerConnection (e.g. werift), or use ' +
          'OpenAIRealtimeModel (WebSocket).',
      );
    }
    const fetchFn = settings.fetch ?? globalThis.fetch;
    const { signal } = options;
    signal?.throwIfAborted();
    const key = await obtainApiKey(
      settings.key,
      (message, cause) => new OpenAIRealtimeError('realtime_api_key_unavailable', message, { cause }),
    );
    if (settings.createPeerConnection === undefined) assertBrowserKey(key);
    const peer = factory();
    let track: TrackEventLike | undefined;
    const onTrack = (event: TrackEventLike) => {
      if (event.track.kind === 'audio') track ??= event;
    };
    peer.addEventListener('track', onTrack);
    const release = () => {
      peer.removeEventListener('track', onTrack);
      void Promise.resolve()
        .then(() => peer.close())
        .catch(() => {});
    };
    // The whole exchange is bounded by the connect deadline; the skeleton bounds what follows it.
    const deadline = new AbortController();
    const timer = settings.clock.setTimeout(() => deadline.abort(), settings.connectTimeoutMs);
    const onAbort = () => deadline.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let socket: ReturnType<typeof dataChannelSocket> | undefined;
    let callId: string | undefined;
    try {
      const channel = peer.createDataChannel(OAI_EVENTS_CHANNEL);
      socket = dataChannelSocket(channel, {
        peer,
        clock: settings.clock,
        disconnectedGraceMs: settings.disconnectedGraceMs,
      });
      peer.addTransceiver(settings.inputTrack ?? 'audio', { direction: 'sendrecv' });
      await peer.setLocalDescription(await peer.createOffer());
      await iceGatheringDone(peer, settings.clock, settings.iceGatheringTimeoutMs);
      const offerSdp = peer.localDescription?.sdp;
      if (!offerSdp) throw new Error('the peer connection made no SDP offer');
      const answer = await postRealtimeCall({
        url: settings.callsURL,
        key,
        offerSdp,
        fetch: fetchFn,
        signal: deadline.signal,
      });
      callId = answer.callId;
      await peer.setRemoteDescription({ type: 'answer', sdp: answer.answerSdp });
    } catch (error) {
      release();
      if (signal?.aborted) throw signal.reason;
      if (deadline.signal.aborted) {
        throw new OpenAIRealtimeError(
          'realtime_connect_timeout',
          `The WebRTC call was not set up within ${settings.connectTimeoutMs} ms. Check the network, or raise connectTimeoutMs.`,
        );
      }
      throw error;
    } finally {
      settings.clock.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    try {
      const inner = await OpenAIRealtimeConnection.open(
        socket,
        {
          clock: settings.clock,
          connectTimeoutMs: settings.connectTimeoutMs,
          closeTimeoutMs: settings.closeTimeoutMs,
          baseSession: settings.sessionConfig,
          secrets: [key],
          servicePlayback: true,
          ...(options.rawEvents && { rawEvents: true }),
        },
        options.config ?? {},
        signal,
      );
      peer.removeEventListener('track', onTrack);
      const connection = new OpenAIRealtimeWebRTCConnection(inner, { callId, peer, track });
      if (track !== undefined) {
        try {
          settings.onRemoteAudio?.(track.track, track.streams ?? []);
        } catch (error) {
          await connection.close();
          throw error;
        }
      }
      return connection;
    } catch (error) {
      release();
      throw error;
    }
  }
}
