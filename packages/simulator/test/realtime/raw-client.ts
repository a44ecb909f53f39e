import type { RealtimeSimulator } from '@parley/simulator';
import { WebSocket } from 'ws';

export type ServerEvent = Record<string, unknown> & { type: string };

/** A bare WebSocket client for asserting the simulator's wire behaviour. */
export class RawClient {
  readonly events: ServerEvent[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  #waiters: { match: (e: ServerEvent) => boolean; count: number; resolve: (e: ServerEvent) => void }[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const event = JSON.parse(data.toString()) as ServerEvent;
      this.events.push(event);
      for (const waiter of [...this.#waiters]) {
        if (waiter.match(event) && this.events.filter(waiter.match).length >= waiter.count) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(event);
        }
      }
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  /** Connects (see {@link RawClient.connect}), sends a `session.update` with `session` and waits for `session.updated`. */
  static async configured(sim: RealtimeSimulator, session: Record<string, unknown>): Promise<RawClient> {
    const client = await RawClient.connect(sim);
    client.send({ type: 'session.update', session: { type: 'realtime', ...session } });
    await client.waitFor('session.updated');
    return client;
  }

  /** Connects to `url` (default: the simulator's url with `?model=gpt-realtime`) and waits for `session.created`. */
  static async connect(
    sim: RealtimeSimulator,
    options: {
      path?: string;
      headers?: Record<string, string>;
      protocols?: string[];
      waitForSession?: boolean;
    } = {},
  ): Promise<RawClient> {
    const url = options.path ? `ws://127.0.0.1:${sim.port}${options.path}` : `${sim.url}?model=gpt-realtime`;
    const ws = new WebSocket(url, options.protocols ?? [], {
      headers: options.headers ?? { Authorization: 'Bearer sk-raw' },
    });
    const client = new RawClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    if (options.waitForSession !== false) await client.waitFor('session.created');
    return client;
  }

  send(event: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(event));
  }

  /** The `count`-th event matching (already received or future). */
  waitFor(match: string | ((e: ServerEvent) => boolean), count = 1): Promise<ServerEvent> {
    const fn = typeof match === 'string' ? (e: ServerEvent) => e.type === match : match;
    const found = this.events.filter(fn);
    if (found.length >= count) return Promise.resolve(found[count - 1] as ServerEvent);
    return new Promise((resolve) => this.#waiters.push({ match: fn, count, resolve }));
  }

  /** Event types since the `from`-th event. */
  types(from = 0): string[] {
    return this.events.slice(from).map((e) => e.type);
  }

  ofType(type: string): ServerEvent[] {
    return this.events.filter((e) => e.type === type);
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000);
    await this.closed;
  }
}

/** Removes runs of the same type, so interleaved delta streams compare as one entry each. */
export function collapse(types: string[]): string[] {
  return types.filter((type, i) => type !== types[i - 1]);
}
