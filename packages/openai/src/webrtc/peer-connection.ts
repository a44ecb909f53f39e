import type { DataChannelLike } from '@parley/transport';

/** A media track as the WebRTC stack hands it over (the browser's `MediaStreamTrack`, or werift's). */
export interface MediaStreamTrackLike {
  readonly kind: string;
}

/** The `track` event of a peer connection: the remote audio, and the streams it belongs to. */
export interface TrackEventLike {
  readonly track: MediaStreamTrackLike;
  readonly streams?: readonly unknown[];
}

/**
 * The `RTCPeerConnection` subset the WebRTC transports use: the browser's (`globalThis.RTCPeerConnection`), or
 * werift's in Node, whose API is the same where it matters.
 */
export interface PeerConnectionLike {
  readonly connectionState: string;
  readonly iceGatheringState: string;
  readonly localDescription: { readonly sdp: string } | null;
  createDataChannel(label: string): DataChannelLike;
  addTransceiver(
    trackOrKind: MediaStreamTrackLike | 'audio',
    init?: { direction?: 'sendrecv' | 'recvonly' | 'sendonly' },
  ): unknown;
  createOffer(): Promise<{ type: string; sdp?: string }>;
  setLocalDescription(description: { type: string; sdp?: string }): Promise<unknown>;
  setRemoteDescription(description: { type: 'answer'; sdp: string }): Promise<unknown>;
  addEventListener(type: 'track', listener: (event: TrackEventLike) => void): void;
  addEventListener(type: 'icegatheringstatechange' | 'connectionstatechange', listener: () => void): void;
  removeEventListener(type: string, listener: (...args: never[]) => void): void;
  close(): void | Promise<void>;
}

/** Makes the peer connection of one call (default: `new globalThis.RTCPeerConnection()`). */
export type PeerConnectionFactory = () => PeerConnectionLike;

/** The runtime's own `RTCPeerConnection` (browsers), as a factory; `undefined` where there is none. */
export function globalPeerConnectionFactory(): PeerConnectionFactory | undefined {
  const Peer = (globalThis as { RTCPeerConnection?: new () => PeerConnectionLike }).RTCPeerConnection;
  return Peer === undefined ? undefined : () => new Peer();
}
