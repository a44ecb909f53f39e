import type { ConversationItem } from '../items.js';
import { inputToItems } from '../runner/loop-env.js';
import {
  type HandoffCallItem,
  type HandoffOutputItem,
  type RunItem,
  runItemsToConversation,
  type ToolCallItem,
  type ToolCallOutputItem,
} from '../runner/run-items.js';
import type { RunStateData } from '../runner/run-state-data.js';
import type { Session } from './session.js';

/**
 * What a write takes: `all` the items so far (a run that ended or paused); `settled` the longest run of
 * items whose calls all have their outputs, ending at an output (a streamed run, as tools complete);
 * `completed_calls` the items up to the last output, without the calls that got none (a failed or
 * cancelled run: the tools' side effects happened, the rejected final message does not count).
 */
export type SessionWriteScope = 'all' | 'settled' | 'completed_calls';

interface Write {
  items: ConversationItem[];
  operationId: string;
  end: number;
}

function isCall<TContext>(
  item: RunItem<TContext>,
): item is ToolCallItem<TContext> | HandoffCallItem<TContext> {
  return item.type === 'tool_call_item' || item.type === 'handoff_call_item';
}

function isOutput<TContext>(
  item: RunItem<TContext>,
): item is ToolCallOutputItem<TContext> | HandoffOutputItem<TContext> {
  return item.type === 'tool_call_output_item' || item.type === 'handoff_output_item';
}

/** The end (exclusive) of the longest prefix of `items` from `from` that ends at an output and leaves no call open. */
function settledEnd<TContext>(items: readonly RunItem<TContext>[], from: number): number {
  const open = new Set<string>();
  let end = from;
  for (let index = from; index < items.length; index++) {
    const item = items[index] as RunItem<TContext>;
    if (isCall(item)) open.add(item.rawItem.callId);
    else if (isOutput(item)) {
      open.delete(item.rawItem.callId);
      if (open.size === 0) end = index + 1;
    }
  }
  return end;
}

/**
 * Writes one run's input and items to its {@link Session}, in order and each item once. Every write is
 * named by the run and the range it covers, so a write retried after a failure (same range, same
 * operation id) lands once even if the failed attempt reached the store.
 */
export class RunSessionWriter<TContext> {
  readonly #session: Session;
  readonly #data: RunStateData<TContext>;
  #chain: Promise<void> = Promise.resolve();
  /** A write that failed: retried first, unchanged, by the next write. */
  #unconfirmed: Write | undefined;

  constructor(session: Session, data: RunStateData<TContext>) {
    this.#session = session;
    this.#data = data;
  }

  /** Queues a write of what is settled now, behind the writes before it. A failure is retried by the next write. */
  queueSettled(): void {
    this.#chain = this.#chain.then(() => this.#write('settled')).catch(() => {});
  }

  /** Waits for the queued writes, then writes `scope`; rejects when that write fails. */
  async write(scope: SessionWriteScope): Promise<void> {
    await this.#chain;
    const next = this.#chain.then(() => this.#write(scope));
    this.#chain = next.catch(() => {});
    await next;
  }

  async #write(scope: SessionWriteScope): Promise<void> {
    if (this.#unconfirmed) {
      const retry = this.#unconfirmed;
      await this.#session.addItems(retry.items, { operationId: retry.operationId });
      this.#confirm(retry);
    }
    const write = this.#next(scope);
    if (!write) return;
    this.#unconfirmed = write;
    if (write.items.length > 0) await this.#session.addItems(write.items, { operationId: write.operationId });
    this.#confirm(write);
  }

  #confirm(write: Write): void {
    this.#unconfirmed = undefined;
    this.#data.sessionSaved = { ...this.#data.sessionSaved, input: true, items: write.end };
  }

  #next(scope: SessionWriteScope): Write | undefined {
    const data = this.#data;
    const saved = data.sessionSaved;
    const from = saved.items;
    const all = data.generatedItems;
    let items: readonly RunItem<TContext>[];
    let end: number;
    if (scope === 'all') {
      end = all.length;
      items = all.slice(from, end);
    } else if (scope === 'settled') {
      end = settledEnd(all, from);
      items = all.slice(from, end);
    } else {
      end = all.slice(from).findLastIndex(isOutput) + from + 1;
      const answered = new Set<string>();
      for (const item of all.slice(from, end)) if (isOutput(item)) answered.add(item.rawItem.callId);
      items = all.slice(from, end).filter((item) => !isCall(item) || answered.has(item.rawItem.callId));
    }
    if (end === from && (scope !== 'all' || saved.input)) return undefined;
    saved.writeId ??= newWriteId();
    const conversation = [
      ...(saved.input ? [] : inputToItems(data.originalInput)),
      ...runItemsToConversation(items),
    ];
    return {
      items: conversation,
      operationId: `${saved.writeId}:${saved.input ? from : 'input'}-${end}`,
      end,
    };
  }
}

function newWriteId(): string {
  return globalThis.crypto.randomUUID();
}
