import type { WireItem } from '@parley/openai/wire';
import type { BrainMessage } from './brain.js';

/** A conversation item with its id, as the simulated service stores it. */
export type StoredItem = WireItem & { id: string };

interface ItemAudio {
  chunks: Uint8Array[];
  bytes: number;
  /** Of the format the audio is in: 48 for PCM16 24 kHz, 8 for G.711. */
  bytesPerMs: number;
}

/**
 * The default conversation of a simulated session: ordered items, the audio of each item (for truncation bounds
 * and `conversation.item.retrieve`), and what was "heard" in user audio.
 */
export class SimulatorConversation {
  /** The items, in conversation order. */
  readonly items: StoredItem[] = [];
  readonly #audio = new Map<string, ItemAudio>();
  readonly #heard = new Map<string, string>();

  /** The id of the last item, or `null` when the conversation is empty. */
  get lastId(): string | null {
    return this.items.at(-1)?.id ?? null;
  }

  /** `true` when an item with this id is in the conversation. */
  has(id: string): boolean {
    return this.items.some((item) => item.id === id);
  }

  /** The item with this id. */
  get(id: string): StoredItem | undefined {
    return this.items.find((item) => item.id === id);
  }

  /** Inserts `item` after `previousId` (`'root'` = first, `undefined` = last); returns the id before it. */
  insert(item: StoredItem, previousId?: string): string | null {
    if (previousId === undefined) {
      const before = this.lastId;
      this.items.push(item);
      return before;
    }
    if (previousId === 'root') {
      this.items.unshift(item);
      return null;
    }
    const index = this.items.findIndex((i) => i.id === previousId);
    this.items.splice(index + 1, 0, item);
    return previousId;
  }

  /** Removes an item and its audio. */
  delete(id: string): void {
    const index = this.items.findIndex((item) => item.id === id);
    if (index !== -1) this.items.splice(index, 1);
    this.#audio.delete(id);
    this.#heard.delete(id);
  }

  /** Appends audio (`bytesPerMs` of its format: 48 for PCM16 24 kHz, 8 for G.711) to an item's bookkeeping. */
  addAudio(id: string, chunk: Uint8Array, bytesPerMs: number): void {
    let audio = this.#audio.get(id);
    if (!audio) {
      audio = { chunks: [], bytes: 0, bytesPerMs };
      this.#audio.set(id, audio);
    }
    audio.chunks.push(chunk);
    audio.bytes += chunk.length;
  }

  /** Whole milliseconds of audio the item holds. */
  audioMs(id: string): number {
    const audio = this.#audio.get(id);
    return audio ? Math.floor(audio.bytes / audio.bytesPerMs) : 0;
  }

  /** `true` when the item has audio bookkeeping (user audio, or assistant audio that was sent). */
  hasAudio(id: string): boolean {
    return this.#audio.has(id);
  }

  /** The item's audio bytes, concatenated. */
  audioBytes(id: string): Uint8Array {
    const audio = this.#audio.get(id);
    const out = new Uint8Array(audio?.bytes ?? 0);
    let offset = 0;
    for (const chunk of audio?.chunks ?? []) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }

  /** Cuts an item's audio to `ms`. */
  truncateAudio(id: string, ms: number): void {
    const bytesPerMs = this.#audio.get(id)?.bytesPerMs ?? 48;
    const bytes = this.audioBytes(id).subarray(0, ms * bytesPerMs);
    this.#audio.set(id, { chunks: [bytes], bytes: bytes.length, bytesPerMs });
  }

  /** Records the words "heard" in a user audio item (see `speechAudio`). */
  setHeard(id: string, text: string): void {
    this.#heard.set(id, text);
  }

  /** A message item flattened to text; user audio counts as what was heard in it. */
  textOf(item: StoredItem): string {
    if (item.type !== 'message') return '';
    const parts: string[] = [];
    for (const part of item.content) {
      if ('text' in part && typeof part.text === 'string') parts.push(part.text);
      else if (part.type === 'input_audio') parts.push(part.transcript ?? this.#heard.get(item.id) ?? '');
      else if ('transcript' in part && typeof part.transcript === 'string') parts.push(part.transcript);
    }
    return parts.join(' ');
  }

  /** The messages of `items` as text. */
  messagesOf(items: readonly StoredItem[]): BrainMessage[] {
    const messages: BrainMessage[] = [];
    for (const item of items) {
      if (item.type === 'message')
        messages.push({ itemId: item.id, role: item.role, text: this.textOf(item) });
    }
    return messages;
  }
}
