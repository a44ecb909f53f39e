import type { AddressInfo } from 'node:net';
import type { RealtimeSession } from '@parley/core';
import { afterEach } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';

/** A wire event, either way. */
export type Wire = Record<string, unknown>;

/** A GPT-Live service whose wire the test scripts: what arrives when is the test's choice. */
export interface ScriptedLivePeer {
  /** The URL to give `OpenAILiveModel`. */
  readonly url: string;
  /** Every client event, in order. */
  readonly received: Wire[];
  /** Sends a server event; resolves once the session started (the peer answered `session.start`). */
  readonly send: Promise<(event: Wire) => void>;
  /** The first client event of `type` (already received or to come). */
  receivedOfType(type: string): Promise<Wire>;
}

/** What a test opened, closed after it: the session first, then the peer it talks to. */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/**
 * A GPT-Live peer on loopback, closed after the test: it answers `session.start` with `session.started` (session
 * `sessionId`) followed by `script` (numbered event ids), and `session.close` with `session.closed` and a close.
 */
export async function scriptedLivePeer(
  sessionId: string,
  script: readonly Wire[] = [],
): Promise<ScriptedLivePeer> {
  const received: Wire[] = [];
  const waiting: { type: string; resolve: (event: Wire) => void }[] = [];
  let started: (send: (event: Wire) => void) => void = () => {};
  const send = new Promise<(event: Wire) => void>((resolve) => {
    started = resolve;
  });
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  server.on('connection', (ws: WebSocket) => {
    const emit = (event: Wire) => ws.send(JSON.stringify(event));
    ws.on('message', (data) => {
      const event = JSON.parse(String(data)) as Wire;
      received.push(event);
      for (const waiter of waiting.filter((w) => w.type === event.type)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(event);
      }
      if (event.type === 'session.start') {
        emit({
          type: 'session.started',
          event_id: 'sev_0',
          session: { id: sessionId, expires_at: 1_900_000_000, model: 'gpt-live-1', status: 'active' },
        });
        for (const [i, e] of script.entries()) emit({ event_id: `sev_${i + 1}`, ...e });
        started(emit);
      }
      if (event.type === 'session.close') {
        emit({ type: 'session.closed', event_id: 'sev_end', reason: 'close_requested' });
        ws.close(1000);
      }
    });
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/v1/live/sessions`,
    received,
    send,
    receivedOfType: (type) => {
      const found = received.find((e) => e.type === type);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiting.push({ type, resolve }));
    },
  };
}

/** Closes `session` after the test, before the peer it talks to. */
export function closeAfterTest<T extends RealtimeSession>(session: T): T {
  cleanups.push(() => session.close());
  return session;
}
