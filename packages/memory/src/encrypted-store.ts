import type { AddItemsOptions, ConversationItem } from '@parley/core';
import { MemoryStoreError } from './errors.js';
import type { MemoryStore, RunClaim } from './store.js';

/** One key of an {@link encryptedStore}: an id (stored beside what it encrypted) and 32 bytes for AES-256-GCM. */
export interface EncryptionKey {
  /** Names the key in what it wrote, so rotation knows which key reads an item. Letters, digits, `_`, `-`, `.`. */
  id: string;
  /** 32 bytes: a `Uint8Array`, or base64 text (e.g. `openssl rand -base64 32`). */
  key: Uint8Array | string;
}

/** Options of {@link encryptedStore}. */
export interface EncryptedStoreOptions {
  /**
   * Newest first: everything is written with the first key; an item is read with the key that wrote it. To rotate,
   * put a new key first and keep the old ones for as long as data they wrote is kept.
   */
  keys: readonly EncryptionKey[];
}

/** How an encrypted item is kept in the store below: a system message whose content is the envelope. */
const PREFIX = 'parley-enc-v1';
const IV_BYTES = 12;
const KEY_ID = /^[\w.-]+$/;

function invalid(message: string): MemoryStoreError {
  return new MemoryStoreError('invalid_option', `encryptedStore: ${message}`);
}

function keyBytes(key: EncryptionKey['key'], id: string): Uint8Array {
  const bytes = typeof key === 'string' ? Uint8Array.from(atob(key), (c) => c.charCodeAt(0)) : key;
  if (!(bytes instanceof Uint8Array) || bytes.byteLength !== 32) {
    throw invalid(
      `key "${id}" must be 32 bytes (a Uint8Array, or base64 text such as \`openssl rand -base64 32\`).`,
    );
  }
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/**
 * A {@link MemoryStore} that encrypts what it writes to `store` (AES-256-GCM, WebCrypto): every item, whole (its
 * type, names and text), and every paused run's state. The store below sees only envelopes and session ids. Items
 * written before encryption was turned on are read as they are. A wrong key, a missing key or a changed envelope is
 * a `MemoryStoreError` (`memory_key_unknown`, `memory_decrypt_failed`), never garbage.
 */
export function encryptedStore(store: MemoryStore, options: EncryptedStoreOptions): MemoryStore {
  if (
    typeof options !== 'object' ||
    options === null ||
    !Array.isArray(options.keys) ||
    options.keys.length === 0
  ) {
    throw invalid('pass { keys: [{ id, key }] }, the newest key first.');
  }
  const seen = new Set<string>();
  const raw = options.keys.map(({ id, key }) => {
    if (typeof id !== 'string' || !KEY_ID.test(id))
      throw invalid(`key ids are letters, digits, _, - and . (got ${JSON.stringify(id)}).`);
    if (seen.has(id)) throw invalid(`key id "${id}" is given twice.`);
    seen.add(id);
    return { id, bytes: keyBytes(key, id) };
  });
  return new EncryptedStore(store, raw);
}

class EncryptedStore implements MemoryStore {
  readonly #store: MemoryStore;
  readonly #writeKey: string;
  readonly #keys: Map<string, Promise<CryptoKey>>;

  constructor(store: MemoryStore, keys: { id: string; bytes: Uint8Array }[]) {
    this.#store = store;
    this.#writeKey = keys[0]?.id as string;
    this.#keys = new Map(
      keys.map(({ id, bytes }) => [
        id,
        crypto.subtle.importKey('raw', new Uint8Array(bytes), { name: 'AES-GCM' }, false, [
          'encrypt',
          'decrypt',
        ]),
      ]),
    );
  }

  async getItems(sessionId: string, limit?: number): Promise<ConversationItem[]> {
    return await Promise.all(
      (await this.#store.getItems(sessionId, limit)).map((item) => this.#openItem(item)),
    );
  }

  async addItems(sessionId: string, items: ConversationItem[], options?: AddItemsOptions): Promise<void> {
    const sealed = await Promise.all(items.map((item) => this.#sealItem(item)));
    await this.#store.addItems(sessionId, sealed, options);
  }

  async popItem(sessionId: string): Promise<ConversationItem | undefined> {
    const item = await this.#store.popItem(sessionId);
    return item && (await this.#openItem(item));
  }

  clearSession(sessionId: string): Promise<void> {
    return this.#store.clearSession(sessionId);
  }

  async saveRun(runId: string, state: string): Promise<void> {
    await this.#store.saveRun(runId, await this.#seal(state));
  }

  async claimRun(runId: string, claim: RunClaim, now: number): Promise<string | undefined> {
    const state = await this.#store.claimRun(runId, claim, now);
    return state === undefined ? undefined : await this.#open(state);
  }

  async finishRun(runId: string, owner: string, state: string | undefined): Promise<boolean> {
    return await this.#store.finishRun(
      runId,
      owner,
      state === undefined ? undefined : await this.#seal(state),
    );
  }

  close(): Promise<void> {
    return this.#store.close();
  }

  async #sealItem(item: ConversationItem): Promise<ConversationItem> {
    return { type: 'message', role: 'system', content: await this.#seal(JSON.stringify(item)) };
  }

  async #openItem(item: ConversationItem): Promise<ConversationItem> {
    if (item.type !== 'message' || !item.content.startsWith(`${PREFIX}:`)) return item;
    return JSON.parse(await this.#open(item.content)) as ConversationItem;
  }

  async #seal(text: string): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const key = await (this.#keys.get(this.#writeKey) as Promise<CryptoKey>);
    const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(text));
    return `${PREFIX}:${this.#writeKey}:${toBase64(iv)}:${toBase64(new Uint8Array(sealed))}`;
  }

  async #open(envelope: string): Promise<string> {
    if (!envelope.startsWith(`${PREFIX}:`)) return envelope; // written before encryption was turned on
    const [, keyId = '', iv = '', data = ''] = envelope.split(':');
    const key = this.#keys.get(keyId);
    if (!key) {
      throw new MemoryStoreError(
        'memory_key_unknown',
        `This data was encrypted with key "${keyId}", which is not among the keys given; add it back (after the new key) to read it.`,
      );
    }
    try {
      const opened = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: fromBase64(iv) },
        await key,
        fromBase64(data),
      );
      return new TextDecoder().decode(opened);
    } catch (error) {
      throw new MemoryStoreError(
        'memory_decrypt_failed',
        `Data encrypted with key "${keyId}" could not be decrypted: the key is not the one that wrote it, or the data was changed.`,
        { cause: error },
      );
    }
  }
}
