import { type LiveSimulator, type LiveSimulatorOptions, startLiveSimulator } from '@parley/simulator';
import { afterEach } from 'vitest';

/** What a test started, closed after it newest first: a session before the simulator it talks to. */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Starts a GPT-Live simulator, closed after the test. */
export async function liveSimulator(options?: LiveSimulatorOptions): Promise<LiveSimulator> {
  const sim = await startLiveSimulator(options);
  cleanups.push(() => sim.close());
  return sim;
}

/** Closes `closable` (a session, a connection) after the test, before the simulator started ahead of it. */
export function closeAfterTest<T extends { close(): Promise<unknown> }>(closable: T): T {
  cleanups.push(() => closable.close());
  return closable;
}
