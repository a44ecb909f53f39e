import type { Agent } from '../../../agent.js';
import { DROPPED_RESPONSES_LIMIT, TRACKED_RESPONSES_LIMIT } from '../../../constants.js';
import { RecentIds } from '../../../recent-ids.js';

/** What the session knows about one response of the provider. */
export interface TrackedResponse<TContext> {
  /** The agent that was active when it started; its tool calls run against this agent. */
  readonly agent: Agent<TContext>;
  readonly ephemeral: boolean;
  /** `response_started` arrived. */
  started: boolean;
  /** `response_done` arrived (or the session ended it: a stale response). */
  done: boolean;
  /** Interrupted, cancelled or otherwise cut short. */
  interrupted: boolean;
  /** Its output messages, in order. */
  readonly itemIds: Set<string>;
  /** The session's request it answered (set at its start); none for a response the provider started itself. */
  clientRequestId: string | undefined;
}

/**
 * The responses the session has seen, by id: which agent and conversation each belongs to and how far
 * it got. Finished responses are forgotten oldest first beyond a small bound, except the one whose
 * audio arrived last (the app may still be playing it).
 */
export class ResponseTracker<TContext> {
  /** Created on first use: an idle session holds none. */
  #responses: Map<string, TrackedResponse<TContext>> | undefined;
  readonly #currentAgent: () => Agent<TContext>;
  /** The response whose audio reached the app last (never forgotten while it is that one). */
  #lastAudioResponseId: string | undefined;
  readonly #dropped = new RecentIds(DROPPED_RESPONSES_LIMIT);

  constructor(currentAgent: () => Agent<TContext>) {
    this.#currentAgent = currentAgent;
  }

  get(responseId: string): TrackedResponse<TContext> | undefined {
    return this.#responses?.get(responseId);
  }

  /** The response, first seen now (with the active agent) if it is new. */
  track(responseId: string, ephemeral = false): TrackedResponse<TContext> {
    let response = this.#responses?.get(responseId);
    if (response) return response;
    response = {
      agent: this.#currentAgent(),
      ephemeral,
      started: false,
      done: false,
      interrupted: false,
      itemIds: new Set(),
      clientRequestId: undefined,
    };
    this.#responses ??= new Map<string, TrackedResponse<TContext>>();
    this.#responses.set(responseId, response);
    if ((this.#responses?.size ?? 0) > TRACKED_RESPONSES_LIMIT) this.#forgetOldest();
    return response;
  }

  /** The session dropped `responseId` as stale: whatever it still delivers is ignored, even once it is forgotten. */
  drop(responseId: string): void {
    this.#dropped.add(responseId);
  }

  /** Whether the session dropped `responseId` as stale (remembered well beyond the responses it tracks). */
  wasDropped(responseId: string): boolean {
    return this.#dropped.has(responseId);
  }

  /** A message of `responseId` began to reach the app with its audio. */
  audio(responseId: string): void {
    if (responseId === this.#lastAudioResponseId) return;
    this.track(responseId);
    this.#lastAudioResponseId = responseId;
  }

  /** Whether `itemId` is an output of an out-of-band response (it must never enter history). */
  isOutOfBandItem(itemId: string): boolean {
    for (const response of this.#responses?.values() ?? []) {
      if (response.ephemeral && response.itemIds.has(itemId)) return true;
    }
    return false;
  }

  /** Whether an out-of-band response started and has not ended. */
  outOfBandStreaming(): boolean {
    for (const response of this.#responses?.values() ?? []) {
      if (response.ephemeral && !response.done) return true;
    }
    return false;
  }

  /** Forgets everything (the connection is gone). */
  clear(): void {
    this.#responses?.clear();
    this.#dropped.clear();
    this.#lastAudioResponseId = undefined;
  }

  #forgetOldest(): void {
    for (const [id, response] of this.#responses ?? []) {
      if (response.done && id !== this.#lastAudioResponseId) {
        this.#responses?.delete(id);
        return;
      }
    }
  }
}
