import {
  type Agent,
  RealtimeSession,
  type RealtimeSessionEvent,
  type RealtimeSessionEventOf,
  type RealtimeSessionEventType,
  type RealtimeSessionOptions,
} from '@parley/core';
import { FastForwardClock } from '@parley/simulator';
import { GeminiLiveModel, type GeminiLiveModelOptions } from '../src/index.js';
import { type GeminiSimulatorOptions, startGeminiSimulator } from '../src/testing/index.js';

/** The session events a test recorded, with a way to wait for the n-th one of a kind. */
export class EventLog {
  readonly events: RealtimeSessionEvent[] = [];
  readonly #waiters: { match: (e: RealtimeSessionEvent) => boolean; count: number; resolve: () => void }[] =
    [];

  constructor(session: RealtimeSession) {
    void (async () => {
      for await (const event of session) this.#record(event);
    })();
  }

  of<T extends RealtimeSessionEventType>(type: T): RealtimeSessionEventOf<T>[] {
    return this.events.filter((e) => e.type === type) as RealtimeSessionEventOf<T>[];
  }

  async waitFor<T extends RealtimeSessionEventType>(
    type: T,
    match: (event: RealtimeSessionEventOf<T>) => boolean = () => true,
    count = 1,
  ): Promise<RealtimeSessionEventOf<T>> {
    const fn = (e: RealtimeSessionEvent) => e.type === type && match(e as RealtimeSessionEventOf<T>);
    if (this.events.filter(fn).length < count) {
      await new Promise<void>((resolve) => this.#waiters.push({ match: fn, count, resolve }));
    }
    return this.events.filter(fn)[count - 1] as RealtimeSessionEventOf<T>;
  }

  #record(event: RealtimeSessionEvent): void {
    this.events.push(event);
    for (const waiter of [...this.#waiters]) {
      if (this.events.filter(waiter.match).length >= waiter.count) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
}

/** A simulator on a fast-forward clock and a model pointed at it. */
export async function geminiRig(
  options: { model?: Omit<GeminiLiveModelOptions, 'baseUrl'>; simulator?: GeminiSimulatorOptions } = {},
) {
  const clock = new FastForwardClock();
  const simulator = await startGeminiSimulator({ clock, ...options.simulator });
  const model = new GeminiLiveModel({
    apiKey: 'test-key',
    baseUrl: simulator.wsBaseUrl,
    clock,
    keepalive: false,
    ...options.model,
  });
  const sessions: RealtimeSession[] = [];
  return {
    clock,
    simulator,
    model,
    session(agent: Agent, sessionOptions: Omit<RealtimeSessionOptions<unknown>, 'model'> = {}) {
      const session = new RealtimeSession(agent, {
        model,
        clock,
        ...sessionOptions,
      } as RealtimeSessionOptions<unknown>);
      sessions.push(session);
      return { session, events: new EventLog(session) };
    },
    async close() {
      for (const session of sessions) await session.close();
      await simulator.close();
    },
  };
}
