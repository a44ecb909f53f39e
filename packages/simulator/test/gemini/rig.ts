import { type Agent, RealtimeSession, type RealtimeSessionOptions } from '@parley/core';
import { GeminiLiveModel, type GeminiLiveModelOptions } from '@parley/google';
import { FastForwardClock, type GeminiSimulatorOptions, startGeminiSimulator } from '@parley/simulator';
import { SessionEventLog } from '../realtime/session-rig.js';

/** The session events a test recorded, with a way to wait for the n-th one of a kind. */
export class EventLog extends SessionEventLog {
  constructor(session: RealtimeSession) {
    super();
    void (async () => {
      for await (const event of session) this.record(event);
    })();
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
