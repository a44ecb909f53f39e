/** What `/realtime-key` answers: an ephemeral key, and the URL to connect to when it is not OpenAI's. */
export interface RealtimeKey {
  key: string;
  url?: string;
}

/** Bundles the page's code (src/main.ts) for the browser. */
export function bundlePage(): Promise<string>;

/** Serves the page on 127.0.0.1 (`port` 0: a free one). */
export function startExampleServer(options: {
  port?: number;
  realtimeKey: () => Promise<RealtimeKey>;
}): Promise<{ url: string; close(): Promise<void> }>;
