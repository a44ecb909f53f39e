import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { AddItemsOptions, ConversationItem } from '@parley/core';
import { type MemoryStore, storeSession } from '@parley/memory';
import type { TranscriptPrinter } from '../transcript-printer.js';

/** Where the demo keeps the call: a store, and how to name it for the reader. */
export interface DemoMemory {
  store: MemoryStore;
  /** E.g. `PGlite at /tmp/parley-demo-memory`. */
  label: string;
  /** Resolves once the store is open (at once, but on the first run, while its directory is prepared). */
  ready(): Promise<void>;
  /** Closes the store if the demo opened it (and stops its preparation if that still runs). */
  close(): Promise<void>;
}

async function openPGlite(dataDir: string): Promise<MemoryStore> {
  const { openPGliteStore } = await import('@parley/memory/pglite');
  return await openPGliteStore({ dataDir });
}

/**
 * Opens the embedded store (PGlite, persisted to `dataDir`). A new directory takes PGlite several seconds of CPU to
 * initialise, once: that runs in a child process beside the call, so the call does not wait for it (see
 * {@link FreshStore}).
 */
export async function openDemoMemory(dataDir: string, printer: TranscriptPrinter): Promise<DemoMemory> {
  const label = `PGlite at ${dataDir}`;
  if (existsSync(dataDir)) {
    const store = await openPGlite(dataDir);
    return { store, label, ready: async () => {}, close: () => store.close() };
  }
  printer.say('memory', `preparing the embedded store (${label}) beside the call: first run only`);
  const preparation = prepareDirectory(dataDir);
  const opening = preparation.done.then(() => openPGlite(dataDir));
  opening.catch(() => {}); // reported by the store's first use
  return {
    store: new FreshStore(opening),
    label,
    ready: async () => {
      await opening;
    },
    async close() {
      preparation.stop();
      await (await opening.catch(() => undefined))?.close();
    },
  };
}

/**
 * Initialises a PGlite directory in a child process: into `<dir>.preparing`, renamed to `dir` once complete, so an
 * interrupted preparation never leaves a half-made store behind.
 */
function prepareDirectory(dataDir: string): { done: Promise<void>; stop(): void } {
  const staging = `${dataDir}.preparing`;
  const script =
    'const { PGlite } = await import(process.env.PARLEY_PGLITE_MODULE);' +
    'const db = await PGlite.create(process.env.PARLEY_PGLITE_DIR); await db.close();';
  let child: ReturnType<typeof spawn> | undefined;
  const done = (async () => {
    await rm(staging, { recursive: true, force: true });
    child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: {
        ...process.env,
        PARLEY_PGLITE_MODULE: import.meta.resolve('@electric-sql/pglite'),
        PARLEY_PGLITE_DIR: staging,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child?.once('error', reject);
      child?.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`Preparing the embedded store failed (exit ${code}): ${errors.trim()}`);
    await rename(staging, dataDir);
  })();
  return {
    done,
    stop() {
      if (child && child.exitCode === null) child.kill();
    },
  };
}

/**
 * A store still being made. It cannot hold anything before its first write, so a read before any write answers at
 * once (the session's start reads its memory); every other call waits until the store is open.
 */
class FreshStore implements MemoryStore {
  readonly #opening: Promise<MemoryStore>;
  #written = false;

  constructor(opening: Promise<MemoryStore>) {
    this.#opening = opening;
  }

  async getItems(sessionId: string, limit?: number): Promise<ConversationItem[]> {
    if (!this.#written) return [];
    return (await this.#opening).getItems(sessionId, limit);
  }

  async addItems(sessionId: string, items: ConversationItem[], options?: AddItemsOptions): Promise<void> {
    this.#written = true;
    await (await this.#opening).addItems(sessionId, items, options);
  }

  async popItem(sessionId: string): Promise<ConversationItem | undefined> {
    return (await this.#opening).popItem(sessionId);
  }

  async clearSession(sessionId: string): Promise<void> {
    await (await this.#opening).clearSession(sessionId);
  }

  async saveRun(runId: string, state: string): Promise<void> {
    this.#written = true;
    await (await this.#opening).saveRun(runId, state);
  }

  async claimRun(...args: Parameters<MemoryStore['claimRun']>): Promise<string | undefined> {
    return (await this.#opening).claimRun(...args);
  }

  async finishRun(...args: Parameters<MemoryStore['finishRun']>): Promise<boolean> {
    return (await this.#opening).finishRun(...args);
  }

  async close(): Promise<void> {
    await (await this.#opening.catch(() => undefined))?.close();
  }
}

/** What the call left in memory, read back from the store: written as the caller heard it, the code never. */
export async function reportStoredCall(
  memory: DemoMemory,
  conversationId: string,
  printer: TranscriptPrinter,
  secret: string,
): Promise<ConversationItem[]> {
  const items = await storeSession(memory.store, conversationId).getItems();
  const messages = items.filter((item) => item.type === 'message').length;
  const calls = items.filter((item) => item.type === 'function_call').length;
  printer.say(
    'memory',
    `💾 ${items.length} items stored as the caller heard them (${memory.label}, conversation ${conversationId}): ` +
      `${messages} messages, ${calls} function calls with their outputs`,
  );
  const lastAnswer = items.findLast((item) => item.type === 'message' && item.role === 'assistant');
  if (lastAnswer?.type === 'message')
    printer.more(`↳ the interrupted answer, as far as it was heard: "${lastAnswer.content}"`);
  const leaked = items.some((item) => JSON.stringify(item).includes(secret));
  printer.more(leaked ? '↳ the one-time code IS in the store' : '↳ the one-time code is not in the store');
  return items;
}
