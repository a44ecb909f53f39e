import type { RealtimeItem } from '../../seam.js';
import { TextBuilder } from '../playback/text-builder.js';
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

/** A message's text and audio flag changed silently since its snapshot was built. */
interface Draft {
  readonly text: TextBuilder;
  hasAudio: boolean;
}

/** One history item: its last frozen snapshot, and what changed silently since (messages only). */
interface Entry {
  item: RealtimeHistoryItem;
  draft: Draft | undefined;
  /** Changed silently (text deltas, audio) since its last `history_updated`. */
  unpublished: boolean;
}

/**
 * The session's local view of the conversation, mirrored from provider events. Items are frozen
 * snapshots: a change replaces the item and emits `history_updated`. Silent changes (text deltas,
 * audio arriving) are kept as a mutable draft and frozen into a snapshot only when one is observed
 * (`get`, `items`) or published: the per-delta path allocates no snapshot.
 */
export class RealtimeHistory {
  /** In conversation order. */
  readonly #entries: Entry[] = [];
  /** Created on first use: an idle session holds none. */
  #byId: Map<string, Entry> | undefined;
  /** The message that received a delta or audio last: the next one is almost always for it too. */
  #recent: Entry | undefined;
  #recentId: string | undefined;
  /** `items` as last read; `undefined` after any change. */
  #snapshot: readonly RealtimeHistoryItem[] | undefined;
  readonly #emit: (event: HistoryEvent) => void;

  constructor(emit: (event: HistoryEvent) => void) {
    this.#emit = emit;
  }

  /** A frozen copy of the current items, in conversation order. */
  get items(): readonly RealtimeHistoryItem[] {
    if (!this.#snapshot) this.#snapshot = Object.freeze(this.#entries.map((entry) => this.#current(entry)));
    return this.#snapshot;
  }

  get(itemId: string): RealtimeHistoryItem | undefined {
    const entry = this.#byId?.get(itemId);
    return entry && this.#current(entry);
  }

  findCall(callId: string): RealtimeFunctionCallHistoryItem | undefined {
    for (const { item } of this.#entries) {
      if (item.type === 'function_call' && item.callId === callId) return item;
    }
    return undefined;
  }

  /** Adds a message, or merges `patch` into it when it is already known. */
  upsertMessage(
    itemId: string,
    fields: Omit<RealtimeMessageHistoryItem, 'type' | 'itemId'>,
    options: { previousItemId?: string | null } = {},
  ): void {
    const existing = this.#byId?.get(itemId);
    if (existing?.item.type === 'message') {
      this.#replace(existing, fields);
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
    const existing = this.#byId?.get(itemId) ?? this.#callEntry(fields.callId);
    if (existing?.item.type === 'function_call') {
      this.#replace(existing, {
        responseId: existing.item.responseId ?? fields.responseId,
        agentName: existing.item.agentName ?? fields.agentName,
      });
      return;
    }
    if (existing) return;
    this.#insert(Object.freeze({ type: 'function_call', itemId, ...fields }), options.previousItemId);
  }

  updateMessage(itemId: string, patch: MessagePatch): void {
    const existing = this.#byId?.get(itemId);
    if (existing?.item.type === 'message') this.#replace(existing, patch);
  }

  /** Appends to a message's text without an event (deltas); the next update publishes it. */
  appendText(itemId: string, delta: string): void {
    const entry = this.#entry(itemId);
    if (delta === '' || entry?.item.type !== 'message') return;
    this.#draft(entry, entry.item).text.append(delta);
    this.#changedSilently(entry);
  }

  /** Marks a message as spoken without an event (its audio arrived); the next update publishes it. */
  markAudio(itemId: string): void {
    const entry = this.#entry(itemId);
    if (entry?.item.type !== 'message') return;
    if (entry.draft ? entry.draft.hasAudio : entry.item.hasAudio) return;
    this.#draft(entry, entry.item).hasAudio = true;
    this.#changedSilently(entry);
  }

  updateCall(callId: string, patch: CallPatch): void {
    const existing = this.#callEntry(callId);
    if (existing) this.#replace(existing, patch);
  }

  remove(itemId: string): void {
    const entry = this.#byId?.get(itemId);
    if (!entry) return;
    this.#entries.splice(this.#entries.indexOf(entry), 1);
    this.#byId?.delete(itemId);
    if (this.#recent === entry) {
      this.#recent = undefined;
      this.#recentId = undefined;
    }
    this.#snapshot = undefined;
    this.#emit({ type: 'history_removed', itemId });
  }

  /** The entry of `itemId`, remembered for the next delta. */
  #entry(itemId: string): Entry | undefined {
    // Compared with the id it was last asked for: the session passes the same string for a message's deltas.
    if (this.#recent !== undefined && itemId === this.#recentId) return this.#recent;
    const entry = this.#byId?.get(itemId);
    if (entry) {
      this.#recent = entry;
      this.#recentId = itemId;
    }
    return entry;
  }

  /** The entry's snapshot, rebuilt first when it has a draft. */
  #current(entry: Entry): RealtimeHistoryItem {
    const { draft } = entry;
    if (draft && entry.item.type === 'message') {
      entry.item = Object.freeze({ ...entry.item, text: draft.text.toString(), hasAudio: draft.hasAudio });
      entry.draft = undefined;
    }
    return entry.item;
  }

  /** The draft of a message's entry (`item` is its snapshot), started from the snapshot. */
  #draft(entry: Entry, item: RealtimeMessageHistoryItem): Draft {
    if (!entry.draft) entry.draft = { text: new TextBuilder(item.text), hasAudio: item.hasAudio };
    return entry.draft;
  }

  #changedSilently(entry: Entry): void {
    entry.unpublished = true;
    this.#snapshot = undefined;
  }

  #callEntry(callId: string): Entry | undefined {
    return this.#entries.find(({ item }) => item.type === 'function_call' && item.callId === callId);
  }

  #insert(item: RealtimeHistoryItem, previousItemId: string | null | undefined): void {
    let index = this.#entries.length;
    if (previousItemId === null) index = 0;
    else if (previousItemId !== undefined) {
      const previous = this.#byId?.get(previousItemId);
      if (previous) index = this.#entries.indexOf(previous) + 1;
    }
    const entry: Entry = { item, draft: undefined, unpublished: false };
    this.#entries.splice(index, 0, entry);
    this.#byId ??= new Map<string, Entry>();
    this.#byId.set(item.itemId, entry);
    this.#snapshot = undefined;
    this.#emit({ type: 'history_added', item });
  }

  #replace(entry: Entry, patch: object): void {
    const existing = this.#current(entry);
    const record = existing as unknown as Record<string, unknown>;
    const defined: Record<string, unknown> = {};
    let changed = false;
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      defined[key] = value;
      if (record[key] !== value) changed = true;
    }
    if (!changed) {
      // Nothing new, but silent changes may still be unpublished (e.g. a final transcript equal to its deltas).
      if (entry.unpublished) {
        entry.unpublished = false;
        this.#emit({ type: 'history_updated', item: existing });
      }
      return;
    }
    const next = Object.freeze({ ...existing, ...defined }) as RealtimeHistoryItem;
    entry.item = next;
    entry.unpublished = false;
    this.#snapshot = undefined;
    this.#emit({ type: 'history_updated', item: next });
  }
}
