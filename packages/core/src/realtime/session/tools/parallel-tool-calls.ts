import { RECENTLY_ENDED_RESPONSES_LIMIT } from '../../../constants.js';
import { RecentIds } from '../../../recent-ids.js';
import type { RealtimeResponseStatus } from '../../seam.js';

interface CallGroup {
  readonly pending: Set<string>;
  ended: boolean;
  status?: RealtimeResponseStatus;
  /** `true` once one of its calls produced a result that is not an error. */
  succeeded: boolean;
  /** `true` once one of its calls produced an output that is not a background result: it needs a follow-up. */
  answered: boolean;
}

/** A follow-up response is due; `succeeded`: at least one of the calls it answers did not fail. */
export interface FollowUpDue {
  succeeded: boolean;
}

/**
 * Coalescing of parallel tool calls: the calls of one response form a group, and the group asks for one
 * follow-up response, when its last call finished or when the response ended if every call finished before
 * (only after a response that ended `completed`). A call with no response to wait for (none given, or
 * that response already ended) asks for its own follow-up when it finishes. Background results ask for none: a
 * group whose outputs are all background gets no follow-up, a mixed group one.
 */
export class ParallelToolCalls {
  /** Both created on the first call: most sessions run no tool. */
  #groups: Map<string, CallGroup> | undefined;
  #callResponse: Map<string, string | undefined> | undefined;
  readonly #recentlyEnded = new RecentIds(RECENTLY_ENDED_RESPONSES_LIMIT);

  /** A function call of `responseId` (if the provider gave one) started running. */
  started(callId: string, responseId: string | undefined): void {
    this.#callResponse ??= new Map();
    const callResponse = this.#callResponse;
    if (callResponse.has(callId)) return;
    if (responseId === undefined || this.#recentlyEnded.has(responseId)) {
      callResponse.set(callId, undefined);
      return;
    }
    callResponse.set(callId, responseId);
    this.#groups ??= new Map();
    const groups = this.#groups;
    let group = groups.get(responseId);
    if (!group) {
      group = { pending: new Set(), ended: false, succeeded: false, answered: false };
      groups.set(responseId, group);
    }
    group.pending.add(callId);
  }

  /**
   * A call finished (its output went out, or could not); `failed`: its output reports an error. Says whether
   * a follow-up response is due now.
   */
  finished(callId: string, failed: boolean, background = false): FollowUpDue | undefined {
    const callResponse = this.#callResponse;
    if (!callResponse?.has(callId)) return undefined;
    const responseId = callResponse.get(callId);
    callResponse.delete(callId);
    if (responseId === undefined) return background ? undefined : { succeeded: !failed };
    const group = this.#groups?.get(responseId);
    if (!group) return undefined;
    group.pending.delete(callId);
    if (!failed) group.succeeded = true;
    if (!background) group.answered = true;
    return this.#completeIfDone(responseId, group);
  }

  /** Response `responseId` ended with `status`; says whether a follow-up response is due now. */
  responseDone(responseId: string, status: RealtimeResponseStatus): FollowUpDue | undefined {
    this.#recentlyEnded.add(responseId);
    const group = this.#groups?.get(responseId);
    if (!group) return undefined;
    group.ended = true;
    group.status = status;
    return this.#completeIfDone(responseId, group);
  }

  /** Forgets every group (the connection is gone). */
  reset(): void {
    this.#groups?.clear();
    this.#callResponse?.clear();
    this.#recentlyEnded.clear();
  }

  #completeIfDone(responseId: string, group: CallGroup): FollowUpDue | undefined {
    if (!group.ended || group.pending.size > 0) return undefined;
    this.#groups?.delete(responseId);
    return group.status === 'completed' && group.answered ? { succeeded: group.succeeded } : undefined;
  }
}
