/** What `/realtime-key` answers: an ephemeral key, the transport, and where to connect when it is not OpenAI. */
export interface RealtimeKey {
  key: string;
  /** Default `'websocket'`. */
  transport?: 'websocket' | 'webrtc';
  /** A WebSocket's URL (the simulator's `url`). */
  url?: string;
  /** A WebRTC call's API root (the simulator's `httpBaseURL`). */
  baseURL?: string;
}

/** Bundles the page's code (src/main.ts) for the browser. */
export function bundlePage(): Promise<string>;

/** Serves the page on 127.0.0.1 (`port` 0: a free one). */
export function startExampleServer(options: {
  port?: number;
  realtimeKey: () => Promise<RealtimeKey>;
}): Promise<{ url: string; close(): Promise<void> }>;
