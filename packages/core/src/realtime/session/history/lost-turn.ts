import type { ConnectionLostError } from '../errors.js';
import { TurnLostError } from '../errors.js';
import type { TurnActivity } from '../events/turn-activity.js';
import type { TurnReports } from '../events/turn-reports.js';
import type { ResponseCoordinator } from '../responses/response-coordinator.js';
import type { ResponseTracker } from '../responses/response-tracker.js';
import type { SessionState } from '../session-state.js';
import type { RealtimeHistory } from './history.js';
import type { RealtimeFunctionCallHistoryItem } from './history-item.js';
import type { HistoryMirror } from './history-mirror.js';
import type { UnacknowledgedInputs } from './unacknowledged-inputs.js';

const CUT_OFF_OUTPUT = (name: string) =>
  `Error: the call to "${name}" was cut off by a lost connection before it finished; its result is unknown.`;

/** What a lost turn is read from. */
export interface TurnSources<TContext> {
  readonly state: SessionState<TContext>;
  readonly activity: TurnActivity;
  readonly coordinator: ResponseCoordinator;
  readonly history: RealtimeHistory;
  readonly mirror: HistoryMirror<TContext>;
  readonly responses: ResponseTracker<TContext>;
  readonly unacknowledged: UnacknowledgedInputs;
  readonly turns: TurnReports<TContext>;
  /** A reconnect replays messages as items (not as one context append). */
  readonly replaysMessages: boolean;
}

/**
 * Lost-turn reporting, whether or not the session reconnects: reports what the turn in progress lost with the
 * connection and runs `release` (which fails what waited on it). The streaming responses end with
 * `response_done` (`failed`, `connection_lost`) and their messages are marked interrupted, running tool calls
 * get an output saying their result is unknown, and a `TurnLostError` names it all (calls whose output could not
 * be written too). Returns the release.
 */
export function dropLostTurn<TContext>(
  turn: TurnSources<TContext>,
  release: (reason: ConnectionLostError) => Promise<void>,
  error: ConnectionLostError,
  detail: string,
  reconnecting: boolean,
): Promise<void> {
  const { coordinator, history, responses, mirror, state } = turn;
  const responseIds = [
    ...new Set([
      ...turn.activity.activeResponseIds,
      ...(coordinator.activeResponseId !== undefined ? [coordinator.activeResponseId] : []),
    ]),
  ];
  const clientRequestIds = coordinator.pendingRequests.map((r) => r.clientRequestId);
  const calls = history.items.filter(
    (item): item is RealtimeFunctionCallHistoryItem =>
      item.type === 'function_call' && item.output === undefined && item.status !== 'cancelled',
  );
  // What the provider never acknowledged: user messages are carried over to the replay (or named, when none
  // comes); tool outputs stay in history (a reconnect replays them), but their follow-up is lost with the turn.
  const unacknowledged = turn.unacknowledged.cut(reconnecting && turn.replaysMessages);
  const callIds = [...new Set([...calls.map((c) => c.callId), ...unacknowledged.callIds])];
  const itemIds = unacknowledged.itemIds;
  // Before the release, while the responses are still known.
  const ephemeral = responseIds.map((id) => responses.get(id)?.ephemeral ?? false);
  for (const id of responseIds) mirror.responseInterrupted(id);
  // What was heard of them is read now, before the release forgets it; reported after their response_done.
  const reportTurns = turn.turns.cut(
    responseIds
      .filter((_, i) => !ephemeral[i])
      .map((responseId) => ({ responseId, agent: responses.get(responseId)?.agent ?? state.agent })),
  );
  // The calls' tasks are cancelled with the connection; after a reconnect the model learns it in the replay.
  for (const call of calls) {
    history.updateCall(call.callId, { output: CUT_OFF_OUTPUT(call.name), status: 'completed' });
  }
  // Ephemeral-response bookkeeping is drained by the release itself.
  const released = release(error);
  responseIds.forEach((responseId, i) => {
    state.emit({
      type: 'response_done',
      responseId,
      status: 'failed',
      ephemeral: ephemeral[i] ?? false,
      reason: 'connection_lost',
    });
  });
  reportTurns();
  if (responseIds.length + callIds.length + clientRequestIds.length + itemIds.length > 0) {
    state.reportError(
      'session',
      new TurnLostError({ responseIds, callIds, clientRequestIds, itemIds }, detail, reconnecting),
    );
  }
  return released;
}
