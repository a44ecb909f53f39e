import type { LiveSimulator } from '@parley/simulator';
import OpenAI from 'openai';
import type { ClientEvent, ServerEvent, SessionConfig } from 'openai/resources/live/live';
import { SidebandWS } from 'openai/resources/live/sideband/ws';
import { LiveWS } from 'openai/resources/live/ws';
import { assertLiveServerEvent } from './live-event-schemas.js';

type AnyServerEvent = ServerEvent | { type: string; [field: string]: unknown };
type Matcher = string | ((event: AnyServerEvent) => boolean);

/**
 * The official `openai` package's GPT-Live WebSocket clients (primary and sideband) pointed at the simulator. Every
 * event they deliver is checked against the SDK's shapes before a test sees it.
 */
export class LiveSdkClient {
  readonly events: AnyServerEvent[] = [];
  readonly invalid: unknown[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  #waiters: { match: (e: AnyServerEvent) => boolean; count: number; resolve: (e: AnyServerEvent) => void }[] =
    [];
  #sentAudio = 0;

  private constructor(readonly ws: LiveWS | SidebandWS) {
    ws.on('event', (event) => {
      try {
        assertLiveServerEvent(event);
      } catch (error) {
        this.invalid.push({ event, error });
      }
      this.events.push(event);
      for (const waiter of [...this.#waiters]) {
        if (waiter.match(event) && this.events.filter(waiter.match).length >= waiter.count) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(event);
        }
      }
    });
    // Server `error` events also arrive here; the test reads them from `events`.
    ws.on('error', () => {});
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason })));
  }

  static openai(sim: LiveSimulator, apiKey = 'sk-live-test'): OpenAI {
    return new OpenAI({ apiKey, baseURL: sim.baseURL });
  }

  /** A primary connection; sends `session.start` with `session` (none when `null`). */
  static primary(
    sim: LiveSimulator,
    session: SessionConfig | Record<string, unknown> | null = { model: 'gpt-live-1' },
    options: { apiKey?: string; eventId?: string } = {},
  ): LiveSdkClient {
    const client = new LiveSdkClient(new LiveWS(LiveSdkClient.openai(sim, options.apiKey)));
    if (session === null) return client;
    client.send({
      type: 'session.start',
      session: session as SessionConfig,
      ...(options.eventId && { event_id: options.eventId }),
    });
    return client;
  }

  /** A sideband attached to a running session. */
  static sideband(sim: LiveSimulator, sessionId: string): LiveSdkClient {
    return new LiveSdkClient(new SidebandWS(LiveSdkClient.openai(sim), { session_id: sessionId }));
  }

  /** Resolves once the socket is open (a sideband gets no event on attach). */
  async opened(): Promise<void> {
    for await (const message of this.ws.stream()) {
      if (message.type === 'open') return;
      if (message.type === 'close') throw new Error(`closed before open: ${message.code}`);
    }
  }

  send(event: ClientEvent | Record<string, unknown>): void {
    (this.ws as LiveWS).send(event as ClientEvent);
  }

  /** The `count`-th event matching (already received or future). */
  waitFor(match: Matcher, count = 1): Promise<AnyServerEvent> {
    const fn = typeof match === 'string' ? (e: AnyServerEvent) => e.type === match : match;
    const found = this.events.filter(fn);
    if (found.length >= count) return Promise.resolve(found[count - 1] as AnyServerEvent);
    return new Promise((resolve) => this.#waiters.push({ match: fn, count, resolve }));
  }

  ofType<T extends string>(type: T): Extract<AnyServerEvent, { type: T }>[] {
    return this.events.filter((e) => e.type === type) as Extract<AnyServerEvent, { type: T }>[];
  }

  /** Streams `pcm` as `session.input_audio.append` frames of `chunkMs`, then waits for as many output deltas. */
  async stream(pcm: Uint8Array, chunkMs = 100, bytesPerMs = 48): Promise<void> {
    const size = chunkMs * bytesPerMs;
    for (let at = 0; at < pcm.length; at += size) {
      this.send({
        type: 'session.input_audio.append',
        audio: Buffer.from(pcm.subarray(at, at + size)).toString('base64'),
      });
      this.#sentAudio++;
    }
    await this.waitFor('session.output_audio.delta', this.#sentAudio);
  }

  close(): void {
    this.ws.close();
  }
}
