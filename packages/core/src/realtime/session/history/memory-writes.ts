import type { Clock } from '../../../clock.js';
import { type ConversationItem, isHostedToolItem } from '../../../items.js';
import { errorText } from '../../../logger.js';
import type { Session } from '../../../memory/session.js';
import type { RealtimeHistory } from './history.js';
import type { RealtimeHistoryItem } from './history-item.js';

/** How long `close()` waits for the last memory writes before it gives up on them. */
const SETTLE_TIMEOUT_MS = 10_000;

type Readiness = 'ready' | 'skip' | 'blocking' | 'pending';

interface Write {
  items: ConversationItem[];
  itemIds: string[];
  operationId: string;
}

/** Item ids a provider accepts back in a replay; longer or odd ones (e.g. a text model's) get a fresh one. */
const REUSABLE_ID = /^[A-Za-z0-9_-]{1,32}$/;

function newItemId(): string {
  return `mem_${globalThis.crypto.randomUUID().replaceAll('-', '').slice(0, 20)}`;
}

/**
 * Writes a voice session's conversation to its `memory` as the listener heard it, and seeds the session from
 * it on connect. An item is written once it is final: a user message when its transcript is complete, an
 * assistant message when its turn is over for the listener (cut at what was heard), a function call with its
 * output. Items go out in conversation order: an assistant message or a call still under way holds back the
 * items after it; a user transcript still coming holds them back until a later turn is over. Ephemeral
 * responses never enter the history, so they are never written.
 */
export class RealtimeMemoryWrites {
  readonly #memory: Session;
  readonly #history: RealtimeHistory;
  readonly #clock: Clock;
  readonly #warn: (code: string, message: string) => void;
  /** Items written, seeded, or passed over for good. */
  readonly #done = new Set<string>();
  /** Responses whose turn is over for the listener. */
  readonly #turnsDone = new Set<string>();
  #chain: Promise<void> = Promise.resolve();
  #queued = false;
  #unconfirmed: Write | undefined;
  #seeded: Promise<number> | undefined;

  constructor(
    memory: Session,
    history: RealtimeHistory,
    clock: Clock,
    warn: (code: string, message: string) => void,
  ) {
    this.#memory = memory;
    this.#history = history;
    this.#clock = clock;
    this.#warn = warn;
  }

  /** Whether the stored conversation was loaded (or is being loaded). */
  get seededAlready(): boolean {
    return this.#seeded !== undefined;
  }

  /**
   * Loads the stored conversation into the history, once (before the first connect): the connect replays it
   * into the provider's conversation like a reconnect. Resolves to the number of items loaded.
   */
  seed(): Promise<number> {
    this.#seeded ??= this.#load().catch((error: unknown) => {
      this.#seeded = undefined;
      throw error;
    });
    return this.#seeded;
  }

  async #load(): Promise<number> {
    const stored = await this.#memory.getItems();
    const outputs = new Map<string, string>();
    for (const item of stored)
      if (item.type === 'function_call_output') outputs.set(item.callId, item.output);
    let loaded = 0;
    for (const item of stored) {
      // Hosted tool items belong to the text model's provider; a realtime model has nothing to replay them into.
      if (item.type === 'function_call_output' || isHostedToolItem(item)) continue;
      const itemId =
        item.id !== undefined && REUSABLE_ID.test(item.id) && !this.#history.get(item.id)
          ? item.id
          : newItemId();
      if (item.type === 'function_call') {
        const output = outputs.get(item.callId);
        // A call stored without its output (a text run paused for approval) has nothing to replay.
        if (output === undefined || this.#history.findCall(item.callId)) continue;
        this.#done.add(itemId);
        this.#history.upsertCall(itemId, {
          callId: item.callId,
          name: item.name,
          arguments: item.arguments,
          status: 'completed',
          output,
        });
      } else {
        if (item.content.length === 0) continue;
        this.#done.add(itemId);
        this.#history.upsertMessage(itemId, {
          role: item.role,
          text: item.content,
          hasAudio: false,
          status: 'completed',
          interrupted: false,
        });
      }
      loaded++;
    }
    return loaded;
  }

  /** A turn is over for the listener: its assistant messages are final, as heard. */
  turnDone(responseId: string): void {
    this.#turnsDone.add(responseId);
    this.changed();
  }

  /** The history changed: writes what became final. */
  changed(): void {
    if (this.#queued) return;
    this.#queued = true;
    this.#chain = this.#chain.then(() => {
      this.#queued = false;
      return this.#flush(false);
    });
  }

  /** The connection ended or the session is closing: what is final now is written, the rest passed over. */
  ended(): void {
    this.#chain = this.#chain.then(() => this.#flush(true));
  }

  /** Resolves once the writes so far are done (or failed), or after a bounded wait. */
  async settled(): Promise<void> {
    let timer: unknown;
    const timeout = new Promise<void>((resolve) => {
      timer = this.#clock.setTimeout(resolve, SETTLE_TIMEOUT_MS);
    });
    await Promise.race([this.#chain, timeout]);
    this.#clock.clearTimeout(timer);
  }

  async #flush(final: boolean): Promise<void> {
    try {
      if (this.#unconfirmed) await this.#send(this.#unconfirmed);
      const write = this.#next(final);
      if (write) {
        this.#unconfirmed = write;
        await this.#send(write);
      }
    } catch (error) {
      const detail = errorText(error);
      this.#warn(
        'memory_write_failed',
        `Writing the conversation to memory failed (${detail}); it is retried with the next turn.`,
      );
    }
  }

  async #send(write: Write): Promise<void> {
    if (write.items.length > 0) await this.#memory.addItems(write.items, { operationId: write.operationId });
    for (const id of write.itemIds) this.#done.add(id);
    this.#unconfirmed = undefined;
  }

  #next(final: boolean): Write | undefined {
    const history = this.#history.items;
    const items: ConversationItem[] = [];
    const itemIds: string[] = [];
    for (let index = 0; index < history.length; index++) {
      const item = history[index] as RealtimeHistoryItem;
      if (this.#done.has(item.itemId)) continue;
      const readiness = this.#readiness(item, history, index, final);
      if (readiness === 'blocking') break;
      if (readiness === 'pending') continue;
      itemIds.push(item.itemId);
      if (readiness === 'ready') items.push(...toConversation(item));
    }
    if (itemIds.length === 0) return undefined;
    return { items, itemIds, operationId: `realtime:${itemIds[0]}:${itemIds.at(-1)}:${itemIds.length}` };
  }

  #readiness(
    item: RealtimeHistoryItem,
    history: readonly RealtimeHistoryItem[],
    index: number,
    final: boolean,
  ): Readiness {
    if (item.type === 'function_call') {
      if (item.output !== undefined) return 'ready';
      return final ? 'skip' : 'blocking';
    }
    if (item.role !== 'assistant') {
      if (item.status === 'completed') return item.text.length > 0 ? 'ready' : 'skip';
      if (item.interrupted || final) return 'skip';
      return this.#laterTurnDone(history, index) ? 'pending' : 'blocking';
    }
    const over =
      item.responseId === undefined ? item.status !== 'in_progress' : this.#turnsDone.has(item.responseId);
    if (!over && !final) return 'blocking';
    return (item.heardText ?? item.text).length > 0 && (over || item.heardText !== undefined)
      ? 'ready'
      : 'skip';
  }

  #laterTurnDone(history: readonly RealtimeHistoryItem[], index: number): boolean {
    for (let later = index + 1; later < history.length; later++) {
      const item = history[later] as RealtimeHistoryItem;
      if (item.responseId !== undefined && this.#turnsDone.has(item.responseId)) return true;
    }
    return false;
  }
}

/** A history item as conversation items, as the listener heard it. */
function toConversation(item: RealtimeHistoryItem): ConversationItem[] {
  if (item.type === 'function_call') {
    return [
      {
        type: 'function_call',
        id: item.itemId,
        callId: item.callId,
        name: item.name,
        arguments: item.arguments,
      },
      { type: 'function_call_output', callId: item.callId, output: item.output ?? '' },
    ];
  }
  return [{ type: 'message', id: item.itemId, role: item.role, content: item.heardText ?? item.text }];
}
