import type { AppendContextCommand, RealtimeCommand, RealtimeItem, RealtimeItemInput } from '../../seam.js';
import { appendChunks } from '../tools/delegations.js';
import type { RealtimeHistoryItem } from './history-item.js';

type CreateItemCommand = Extract<RealtimeCommand, { type: 'createItem' }>;

/** How the session's history is re-created in a new provider conversation. */
export interface HistoryReplayPlan {
  /** `createItem` commands, in conversation order. */
  readonly commands: readonly CreateItemCommand[];
  /** Spoken messages without a transcript: there is no text to replay them with. */
  readonly skipped: readonly string[];
  /** User turns cut mid-transcription: their partial transcript is not replayed as if it were complete. */
  readonly cut: readonly string[];
}

/**
 * Plans the replay of `history` into a fresh conversation (or, with `held`, into a resumed one: what it holds, as
 * history keys, is left out): messages as text (spoken turns as their
 * transcript, assistant audio included; an interrupted one as far as it was heard), each function call followed by its output. Items keep their ids, so
 * the history stays aligned with the provider's conversation. A call without an output is replayed without
 * one; messages with no text are left out (the spoken ones are listed in `skipped`), and so are user turns cut
 * mid-transcription (listed in `cut`).
 */
export function planHistoryReplay(
  history: readonly RealtimeHistoryItem[],
  held: ReadonlySet<string> = new Set(),
): HistoryReplayPlan {
  const commands: CreateItemCommand[] = [];
  const skipped: string[] = [];
  const cut: string[] = [];
  const create = (item: RealtimeItemInput) => commands.push({ type: 'createItem', item });
  for (const item of history) {
    if (item.type === 'function_call') {
      // The provider withdrew it: it is no part of the conversation to re-create.
      if (item.status === 'cancelled') continue;
      if (!held.has(`item:${item.itemId}`)) {
        create({
          type: 'function_call',
          itemId: item.itemId,
          callId: item.callId,
          name: item.name,
          arguments: item.arguments,
        });
      }
      if (item.output !== undefined && !held.has(`output:${item.callId}`)) {
        create({ type: 'function_call_output', callId: item.callId, output: item.output });
      }
      continue;
    }
    if (held.has(`item:${item.itemId}`)) continue;
    // An interrupted message is replayed as heard: its unheard rest was cut from the provider's context too.
    const text = item.heardText ?? item.text;
    if (text.length === 0) {
      if (item.hasAudio) skipped.push(item.itemId);
      continue;
    }
    if (item.role === 'user' && item.hasAudio && item.interrupted) {
      cut.push(item.itemId);
      continue;
    }
    create({
      type: 'message',
      itemId: item.itemId,
      role: item.role,
      content: [{ type: 'text', text }],
    });
  }
  return { commands, skipped, cut };
}

const keyOf = (item: RealtimeItemInput | RealtimeItem): string | undefined =>
  item.type === 'function_call_output'
    ? `output:${item.callId}`
    : item.itemId !== undefined
      ? `item:${item.itemId}`
      : undefined;

/** The history key of what a content command adds (`item:<id>`, `output:<callId>`); none for context appends. */
export function contentKey(command: RealtimeCommand): string | undefined {
  if (command.type === 'createItem') return keyOf(command.item);
  if (command.type === 'sendToolOutput') return `output:${command.callId}`;
  return undefined;
}

/** The keys of what `history` holds: each item, and each function call's output once it has one. */
export function* historyKeys(history: readonly RealtimeHistoryItem[]): Generator<string> {
  for (const item of history) {
    yield `item:${item.itemId}`;
    if (item.type === 'function_call' && item.output !== undefined) yield `output:${item.callId}`;
  }
}

/**
 * The provider confirms each replayed item with an `item_added` event. Those echoes describe what the history
 * already holds (and would, for example, turn a spoken turn into a typed one), so the session drops them: one
 * echo per replayed item, on the connection it was replayed to.
 */
export class ReplayEchoes {
  /** Created on the first replay. */
  #expected: Map<string, number> | undefined;

  /** Expects the echoes of `commands`. */
  expect(commands: readonly CreateItemCommand[]): void {
    for (const command of commands) {
      const key = keyOf(command.item);
      if (key === undefined) continue;
      this.#expected ??= new Map();
      const expected = this.#expected;
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
  }

  /** `true` (and forgets it) when `item` is the echo of a replayed item. */
  consume(item: RealtimeItem): boolean {
    const key = keyOf(item);
    const expected = this.#expected;
    const count = key === undefined ? undefined : expected?.get(key);
    if (key === undefined || count === undefined || !expected) return false;
    if (count <= 1) expected.delete(key);
    else expected.set(key, count - 1);
    return true;
  }

  clear(): void {
    this.#expected?.clear();
  }
}

/**
 * The replay for a provider whose context is append-only (no items, but context appends): the conversation so far as
 * one silent thought (split into appends the provider accepts), so the new session knows what was said.
 */
export function planContextReplay(
  history: readonly RealtimeHistoryItem[],
  held: ReadonlySet<string> = new Set(),
): AppendContextCommand[] {
  const lines: string[] = [];
  for (const item of history) {
    if (item.type === 'function_call') {
      if (item.output !== undefined && !held.has(`output:${item.callId}`))
        lines.push(`tool ${item.name}(${item.arguments}) returned: ${item.output}`);
      continue;
    }
    if (held.has(`item:${item.itemId}`)) continue;
    const text = item.heardText ?? item.text;
    const cutOff = item.role === 'user' && item.hasAudio && item.interrupted;
    if (text.length > 0) lines.push(`${item.role}${cutOff ? ' (cut off, transcript partial)' : ''}: ${text}`);
  }
  if (lines.length === 0) return [];
  const text = `The conversation so far (the connection was renewed; do not repeat it):\n${lines.join('\n')}`;
  return appendChunks(text).map((chunk, i) => ({
    type: 'appendContext',
    kind: 'thought',
    text: chunk,
    clientRequestId: `parley_replay_${i + 1}`,
  }));
}
