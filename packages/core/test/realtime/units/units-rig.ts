import type { Agent, RealtimeCommand, RealtimeSessionEvent } from '@parley/core';
import { MockRealtimeModel } from '@parley/mock';
import { assembleSession, resolveSessionOptions } from '#session-units';

type MockOptions = ConstructorParameters<typeof MockRealtimeModel>[0];

/**
 * The units of one session, built and wired as a RealtimeSession builds them, on a MockRealtimeModel; the
 * session's events are recorded, and each command sent records the history as it was at that moment.
 */
export function unitsOf(agent: Agent, mock: MockOptions = {}) {
  const model = new MockRealtimeModel(mock);
  const parts = assembleSession(agent, resolveSessionOptions(agent, { model, reconnect: false }));
  const events: RealtimeSessionEvent[] = [];
  for (const type of ['error', 'warning', 'tool_started', 'tool_done', 'connection_status'] as const) {
    parts.state.hub.on(type, (event) => events.push(event as RealtimeSessionEvent));
  }
  const sent: { command: RealtimeCommand; history: typeof parts.history.items }[] = [];
  const connect = async () => {
    await parts.lifecycle.connect();
    const connection = model.connection;
    const send = connection.send.bind(connection);
    connection.send = (command: RealtimeCommand) => {
      sent.push({ command, history: parts.history.items });
      send(command);
    };
    return connection;
  };
  return { model, parts, events, sent, connect };
}
