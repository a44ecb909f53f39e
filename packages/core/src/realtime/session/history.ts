import type { RealtimeItem } from '../seam.js';
import type {
  RealtimeFunctionCallHistoryItem,
  RealtimeHistoryItem,
  RealtimeMessageHistoryItem,
} from './history-item.js';

type HistoryEvent =
  | { type: 'history_added'; item: RealtimeHistoryItem }
  | { type: 'history_updated'; item: RealtimeHistoryItem }
  | { type: 'history_removed'; itemId: string };

type MessagePatch = Partial<Omit<RealtimeMessageHistoryItem, 'type' | 'itemId'>>;
type CallPatch = Partial<Omit<RealtimeFunctionCallHistoryItem, 'type' | 'itemId' | 'callId'>>;

/** The text of a seam item's content: text parts and audio transcripts, joined. */
export function itemText(item: RealtimeItem & { type: 'message' }): string {
  return item.content.map((part) => (part.type === 'text' ? part.text : (part.transcript ?? ''))).join('');
}

/**
 * The session's local view of the conversation, mirrored from provider events. Items are frozen
 * snapshots: a change replaces the item and emits `history_updated`.
 */
export class RealtimeHistory {
  #items: RealtimeHistoryItem[] = [];
  /** Items changed silently (text deltas) since their last `history_updated`. */
  readonly #unpublished = new Set<string>();
  readonly #emit: (event: HistoryEvent) => void;

  constructor(emit: (event: HistoryEvent) => void) {
    this.#emit = emit;
  }

  /** A frozen copy of the current items, in conversation order. */
  get items(): readonly RealtimeHistoryItem[] {
    return Object.freeze([...this.#items]);
  }

  get(itemId: string): RealtimeHistoryItem | undefined {
    return this.#items.find((item) => item.itemId === itemId);
  }

  findCall(callId: string): RealtimeFunctionCallHistoryItem | undefined {
    return this.#items.find(
      (item): item is RealtimeFunctionCallHistoryItem =>
        item.type === 'function_call' && item.callId === callId,
    );
  }

  /** Adds a message, or merges `patch` into it when it is already known. */
  upsertMessage(
    itemId: string,
    fields: Omit<RealtimeMessageHistoryItem, 'type' | 'itemId'>,
    options: { previousItemId?: string | null; silent?: boolean } = {},
  ): void {
    const existing = this.get(itemId);
    if (existing?.type === 'message') {
      this.updateMessage(itemId, fields, options);
      return;
    }
    if (existing) return;
    this.#insert(Object.freeze({ type: 'message', itemId, ...fields }), options.previousItemId);
  }

  /** Adds a function call unless it is already known (then fills in what was missing). */
  upsertCall(
    itemId: string,
    fields: Omit<RealtimeFunctionCallHistoryItem, 'type' | 'itemId'>,
    options: { previousItemId?: string | null } = {},
  ): void {
    const existing = this.get(itemId) ?? this.findCall(fields.callId);
    if (existing?.type === 'function_call') {
      this.#replace(existing, {
        responseId: existing.responseId ?? fields.responseId,
        agentName: existing.agentName ?? fields.agentName,
      });
      return;
    }
    if (existing) return;
    this.#insert(Object.freeze({ type: 'function_call', itemId, ...fields }), options.previousItemId);
  }

  updateMessage(itemId: string, patch: MessagePatch, options: { silent?: boolean } = {}): void {
    const existing = this.get(itemId);
    if (existing?.type !== 'message') return;
    this.#replace(existing, patch, options.silent);
  }

  /** Appends to a message's text without an event (deltas); the next update publishes it. */
  appendText(itemId: string, delta: string): void {
    const existing = this.get(itemId);
    if (existing?.type !== 'message') return;
    this.#replace(existing, { text: existing.text + delta }, true);
  }

  updateCall(callId: string, patch: CallPatch): void {
    const existing = this.findCall(callId);
    if (existing) this.#replace(existing, patch);
  }

  remove(itemId: string): void {
    const index = this.#items.findIndex((item) => item.itemId === itemId);
    if (index < 0) return;
    this.#items.splice(index, 1);
    this.#unpublished.delete(itemId);
    this.#emit({ type: 'history_removed', itemId });
  }

  #insert(item: RealtimeHistoryItem, previousItemId: string | null | undefined): void {
    let index = this.#items.length;
    if (previousItemId === null) index = 0;
    else if (previousItemId !== undefined) {
      const previous = this.#items.findIndex((i) => i.itemId === previousItemId);
      if (previous >= 0) index = previous + 1;
    }
    this.#items.splice(index, 0, item);
    this.#emit({ type: 'history_added', item });
  }

  #replace(existing: RealtimeHistoryItem, patch: object, silent = false): void {
    const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    const record = existing as unknown as Record<string, unknown>;
    if (Object.entries(defined).every(([key, value]) => record[key] === value)) {
      // Nothing new, but silent deltas may still be unpublished (e.g. a final transcript equal to its deltas).
      if (!silent && this.#unpublished.delete(existing.itemId))
        this.#emit({ type: 'history_updated', item: existing });
      return;
    }
    const next = Object.freeze({ ...existing, ...defined }) as RealtimeHistoryItem;
    const index = this.#items.indexOf(existing);
    this.#items[index] = next;
    if (silent) {
      this.#unpublished.add(next.itemId);
    } else {
      this.#unpublished.delete(next.itemId);
      this.#emit({ type: 'history_updated', item: next });
    }
  }
}
