import type { RealtimeItem, RealtimeItemInput } from '../../seam.js';

type MessageInput = Extract<RealtimeItemInput, { type: 'message' }> & { itemId: string };

/** What a cut connection took with it, as the lost-turn report names it. */
export interface CutInputs {
  /** User messages the provider never acknowledged and that will not be replayed. */
  readonly itemIds: string[];
  /** Tool calls whose output the provider never acknowledged (written or not). */
  readonly callIds: string[];
}

/**
 * What the session sent for the conversation that the provider has not acknowledged yet, so a cut connection
 * cannot lose it silently. A user message is acknowledged by the provider's `item_added` for the item id the
 * session chose for it (the adapter's normalization of the provider's own item announcement); a tool output by
 * the `item_added` of a `function_call_output` with its call id. Acknowledging twice, or for an item never sent,
 * changes nothing.
 *
 * At a cut, user messages still waiting are carried over and replayed into the next connection after the history
 * (with their item ids, acknowledged again there), or, when no replay will come, named in the lost turn. Tool
 * outputs stay in the history (so a reconnect replays them with it); their calls are named in the lost turn, as
 * the follow-up they waited for is lost.
 *
 * For a provider that acknowledges nothing (no `contentAcknowledgements`), `record` is given: a user message is
 * recorded in the history as it is sent and nothing waits (the replay after a cut re-creates it from the history).
 */
export class UnacknowledgedInputs {
  readonly #record: ((item: MessageInput) => void) | undefined;

  constructor(record?: (item: MessageInput) => void) {
    this.#record = record;
  }

  readonly #prefix = `item_${Math.random().toString(36).slice(2, 8)}_`;
  #seq = 0;
  /** Created on first use. */
  #messages: Map<string, MessageInput> | undefined;
  /** Messages held back until the response in progress is done (not written yet). Created on first use. */
  #held: Map<string, MessageInput> | undefined;
  #outputs: Set<string> | undefined;
  /** Messages a cut carried over to the next connection, in the order they were sent. */
  #carried: MessageInput[] | undefined;

  /** A fresh item id for a message the session creates (unique within the session). */
  nextItemId(): string {
    return `${this.#prefix}${++this.#seq}`;
  }

  /** A user message was written to the provider. */
  messageSent(item: MessageInput): void {
    this.#held?.delete(item.itemId);
    if (this.#record) {
      this.#record(item);
      return;
    }
    this.#messages ??= new Map();
    this.#messages.set(item.itemId, item);
  }

  /** A user message is held back until the response in progress is done: a cut before then carries it over too. */
  held(item: MessageInput): void {
    this.#held ??= new Map();
    this.#held.set(item.itemId, item);
  }

  /** A tool output was written to the provider. */
  outputSent(callId: string): void {
    // Without acknowledgements the history already holds the output (the session put it there).
    if (this.#record) return;
    this.outputLost(callId);
  }

  /** A tool output could not be written because the connection went away: the cut names its call. */
  outputLost(callId: string): void {
    this.#outputs ??= new Set();
    this.#outputs.add(callId);
  }

  /** The provider announced `item` in its conversation. */
  acknowledged(item: RealtimeItem): void {
    if (item.type === 'function_call_output') this.#outputs?.delete(item.callId);
    else this.#messages?.delete(item.itemId);
  }

  /**
   * The connection was cut. `replay`: a reconnect will replay into a new connection, and the messages waiting
   * are carried over to it; otherwise they are returned as lost. Forgets what was waiting on the connection.
   */
  cut(replay: boolean): CutInputs {
    const messages = [...(this.#messages?.values() ?? []), ...(this.#held?.values() ?? [])];
    const callIds = [...(this.#outputs ?? [])];
    this.clear();
    if (replay && messages.length > 0) {
      this.#carried = [...(this.#carried ?? []), ...messages];
      return { itemIds: [], callIds };
    }
    return { itemIds: messages.map((m) => m.itemId), callIds };
  }

  /** Something sent is still waiting for its acknowledgement (a recycle waits for it). */
  get waiting(): boolean {
    return (this.#messages?.size ?? 0) + (this.#outputs?.size ?? 0) + (this.#held?.size ?? 0) > 0;
  }

  /** The messages to replay into the next connection (kept until {@link replayed}). */
  get carried(): readonly MessageInput[] {
    return this.#carried ?? [];
  }

  /** The carried messages were replayed. */
  replayed(): void {
    this.#carried = undefined;
  }

  /** No replay will come (reconnecting gave up, or the session closed): the ids of the carried messages. */
  dropCarried(): string[] {
    const itemIds = this.carried.map((m) => m.itemId);
    this.#carried = undefined;
    return itemIds;
  }

  /** Forgets what was waiting on the current connection (carried messages stay). */
  clear(): void {
    this.#messages?.clear();
    this.#outputs?.clear();
    this.#held?.clear();
  }
}
