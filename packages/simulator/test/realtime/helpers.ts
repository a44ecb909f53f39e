import type { RealtimeConnection, RealtimeEvent } from '@parley/core';
import { OpenAIRealtimeModel, type OpenAIRealtimeModelOptions } from '@parley/openai';
import {
  FastForwardClock,
  type RealtimeSimulator,
  type RealtimeSimulatorOptions,
  startRealtimeSimulator,
} from '@parley/simulator';
import { afterEach } from 'vitest';

export const API_KEY = 'sk-test-0123456789abcdefSECRET';

type Matcher<T extends RealtimeEvent['type']> = T | ((event: RealtimeEvent) => boolean);

/** Records a connection's events and lets a test await them. */
export class EventLog {
  readonly events: RealtimeEvent[] = [];
  #waiters: { match: (e: RealtimeEvent) => boolean; count: number; resolve: (e: RealtimeEvent) => void }[] =
    [];

  constructor(connection: RealtimeConnection) {
    connection.onEvent((event) => {
      this.events.push(event);
      for (const waiter of [...this.#waiters]) {
        if (!waiter.match(event)) continue;
        if (this.events.filter(waiter.match).length >= waiter.count) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(event);
        }
      }
    });
  }

  /** The `count`-th event matching, already received or future. */
  waitFor<T extends RealtimeEvent['type']>(
    match: Matcher<T>,
    count = 1,
  ): Promise<Extract<RealtimeEvent, { type: T }>> {
    const fn = typeof match === 'string' ? (e: RealtimeEvent) => e.type === match : match;
    const found = this.events.filter(fn);
    if (found.length >= count)
      return Promise.resolve(found[count - 1] as Extract<RealtimeEvent, { type: T }>);
    return new Promise((resolve) =>
      this.#waiters.push({ match: fn, count, resolve: resolve as (e: RealtimeEvent) => void }),
    );
  }

  ofType<T extends RealtimeEvent['type']>(type: T): Extract<RealtimeEvent, { type: T }>[] {
    return this.events.filter((e) => e.type === type) as Extract<RealtimeEvent, { type: T }>[];
  }

  types(): string[] {
    return this.events.map((e) => e.type);
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Starts a simulator (paced, on a `FastForwardClock` unless the test gives a clock), closed after the test. */
export async function simulator(options: RealtimeSimulatorOptions = {}): Promise<RealtimeSimulator> {
  const sim = await startRealtimeSimulator({ clock: new FastForwardClock(), ...options });
  cleanups.push(() => sim.close());
  return sim;
}

/** A model pointed at the simulator. */
export function modelFor(
  sim: RealtimeSimulator,
  options: OpenAIRealtimeModelOptions = {},
): OpenAIRealtimeModel {
  return new OpenAIRealtimeModel({ apiKey: API_KEY, url: sim.url, ...options });
}

/** Connects to a fresh simulator; both closed after the test. */
export async function connected(
  simOptions: RealtimeSimulatorOptions = {},
  modelOptions: OpenAIRealtimeModelOptions = {},
  config: Parameters<OpenAIRealtimeModel['connect']>[0]['config'] = {},
) {
  const sim = await simulator(simOptions);
  const model = modelFor(sim, modelOptions);
  const connection = await model.connect({ config });
  cleanups.push(() => connection.close());
  const log = new EventLog(connection);
  const server = await sim.waitForConnection(0);
  return { sim, model, connection, log, server };
}

/** Client events of a type, recorded by the simulator. */
export function sent(server: { clientEvents: readonly unknown[] }, type: string): Record<string, unknown>[] {
  return server.clientEvents.filter(
    (e): e is Record<string, unknown> =>
      typeof e === 'object' && e !== null && (e as { type?: unknown }).type === type,
  );
}
