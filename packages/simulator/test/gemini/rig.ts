import { EventRecorder } from '@parley/conformance';
import { type Agent, RealtimeSession, type RealtimeSessionOptions } from '@parley/core';
import { GeminiLiveModel, type GeminiLiveModelOptions } from '@parley/google';
import { FastForwardClock, type GeminiSimulatorOptions, startGeminiSimulator } from '@parley/simulator';

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
      return { session, events: new EventRecorder(session) };
    },
    async close() {
      for (const session of sessions) await session.close();
      await simulator.close();
    },
  };
}
