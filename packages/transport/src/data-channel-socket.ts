import type { Clock, TimerHandle } from '@parley/core';
import type { SocketEventMap, WebSocketLike } from './socket-types.js';

/** The WebRTC data channel subset Parley uses: the browser's `RTCDataChannel`, or werift's in Node. */
export interface DataChannelLike {
  readonly readyState: 'connecting' | 'open' | 'closing' | 'closed';
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'close' | 'closing', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'error', listener: (event: { error?: unknown }) => void): void;
  removeEventListener(type: string, listener: (...args: never[]) => void): void;
}

/** The peer connection subset the channel's owner watches: its state, and closing it. */
export interface PeerStateLike {
  readonly connectionState: string;
  addEventListener(type: 'connectionstatechange', listener: () => void): void;
  removeEventListener(type: 'connectionstatechange', listener: () => void): void;
  close(): void | Promise<void>;
}

/** Options of {@link dataChannelSocket}. */
export interface DataChannelSocketOptions {
  /** The peer connection the channel belongs to: closed with the socket, and watched for a lost connection. */
  peer: PeerStateLike;
  clock: Clock;
  /** How long the peer may stay `disconnected` (ICE may recover) before the connection counts as lost. */
  disconnectedGraceMs: number;
}

const READY_STATES = { connecting: 0, open: 1, closing: 2, closed: 3 } as const;

type Listener<K extends keyof SocketEventMap> = (event: SocketEventMap[K]) => void;

/**
 * A WebRTC data channel as the WHATWG WebSocket subset the connection skeleton speaks (`SocketConnection`), so a
 * protocol whose events travel on a data channel (OpenAI's `oai-events`) reuses the same skeleton and codec as its
 * WebSocket form. The channel closing is the socket closing: code 1000 when this side closed it, 1006 otherwise (the
 * peer went away, or its connection `failed`, or stayed `disconnected` beyond the grace). Closing the socket closes
 * the channel and the peer connection.
 */
export function dataChannelSocket(
  channel: DataChannelLike,
  options: DataChannelSocketOptions,
): WebSocketLike {
  const { peer, clock, disconnectedGraceMs } = options;
  const closeListeners = new Set<Listener<'close'>>();
  const errorListeners = new Set<Listener<'error'>>();
  let closedByUs: { code: number; reason: string } | undefined;
  let lost: string | undefined;
  let ended = false;
  let grace: TimerHandle | undefined;

  const end = () => {
    if (ended) return;
    ended = true;
    if (grace !== undefined) clock.clearTimeout(grace);
    peer.removeEventListener('connectionstatechange', onPeerState);
    channel.removeEventListener('close', end);
    channel.removeEventListener('error', onChannelError);
    const event = closedByUs ?? { code: 1006, reason: lost ?? 'the data channel closed' };
    void Promise.resolve()
      .then(() => peer.close())
      .catch(() => {});
    for (const listener of [...closeListeners]) listener({ ...event, wasClean: closedByUs !== undefined });
  };
  const loseConnection = (why: string) => {
    lost ??= why;
    for (const listener of [...errorListeners]) listener({ message: why });
    try {
      channel.close();
    } catch {
      // Already closing.
    }
    end();
  };
  function onPeerState() {
    const state = peer.connectionState;
    if (state === 'failed' || state === 'closed') {
      loseConnection(`the WebRTC connection ${state}`);
    } else if (state === 'disconnected') {
      if (grace === undefined) {
        grace = clock.setTimeout(() => {
          grace = undefined;
          if (peer.connectionState === 'disconnected') {
            loseConnection(`the WebRTC connection stayed disconnected for ${disconnectedGraceMs} ms`);
          }
        }, disconnectedGraceMs);
      }
    } else if (grace !== undefined) {
      clock.clearTimeout(grace);
      grace = undefined;
    }
  }
  const onChannelError = (event: { error?: unknown }) => {
    const message = event.error instanceof Error ? event.error.message : 'the data channel failed';
    for (const listener of [...errorListeners]) listener({ message, error: event.error });
  };
  peer.addEventListener('connectionstatechange', onPeerState);
  channel.addEventListener('close', end);
  channel.addEventListener('error', onChannelError);

  return {
    get readyState() {
      return ended ? READY_STATES.closed : READY_STATES[channel.readyState];
    },
    binaryType: 'arraybuffer',
    send(data: string) {
      channel.send(data);
    },
    close(code = 1000, reason = '') {
      if (ended) return;
      closedByUs ??= { code, reason };
      try {
        channel.close();
      } catch {
        // Already closing.
      }
      // Some stacks never report their own close of a channel: the socket ends either way.
      queueMicrotask(end);
    },
    addEventListener<K extends keyof SocketEventMap>(type: K, listener: Listener<K>) {
      if (type === 'close') closeListeners.add(listener as Listener<'close'>);
      else if (type === 'error') errorListeners.add(listener as Listener<'error'>);
      else channel.addEventListener(type as 'open', listener as () => void);
    },
    removeEventListener<K extends keyof SocketEventMap>(type: K, listener: Listener<K>) {
      if (type === 'close') closeListeners.delete(listener as Listener<'close'>);
      else if (type === 'error') errorListeners.delete(listener as Listener<'error'>);
      else channel.removeEventListener(type, listener as () => void);
    },
  };
}
