import type { RealtimeEvent } from '../../seam.js';

type ItemAdded = Extract<RealtimeEvent, { type: 'item_added' }>;

/**
 * Model output the provider announced (`item_added`) before any response claimed it, while an out-of-band
 * response may still claim it: an ephemeral response's items must never enter the history, even when the service
 * announces them before the response's output item (or before the response itself) links them to it. Such an
 * announcement is held: a conversation response's claim lets it in, an out-of-band response's claim drops it, and
 * once no out-of-band response is pending, what no response claimed is dropped (a conversation response's items
 * reach the history through its own output events anyway).
 */
export class UnclaimedItems {
  readonly #outOfBandPending: () => boolean;
  /** Created on first use: only while an out-of-band response is pending. */
  #held: Map<string, ItemAdded> | undefined;

  /** `outOfBandPending`: an out-of-band response is requested or streaming. */
  constructor(outOfBandPending: () => boolean) {
    this.#outOfBandPending = outOfBandPending;
  }

  /** `true` when the announcement is held (not applied now). */
  hold(event: ItemAdded): boolean {
    const { item } = event;
    const modelOutput =
      item.type === 'function_call' || (item.type === 'message' && item.role === 'assistant');
    if (!modelOutput) return false;
    this.settle();
    if (!this.#held?.has(item.itemId) && !this.#outOfBandPending()) return false;
    // Announced twice: the later announcement is the one to apply.
    this.#held ??= new Map();
    this.#held.set(item.itemId, event);
    return true;
  }

  /** A response claimed `itemId`: its held announcement, to apply for a conversation response (else dropped). */
  claimed(itemId: string, ephemeral: boolean): ItemAdded | undefined {
    const held = this.#held?.get(itemId);
    if (!held) return undefined;
    this.#held?.delete(itemId);
    return ephemeral ? undefined : held;
  }

  /** Drops what no response claimed once no out-of-band response is pending any more. */
  settle(): void {
    if (this.#held?.size && !this.#outOfBandPending()) this.#held.clear();
  }
}
