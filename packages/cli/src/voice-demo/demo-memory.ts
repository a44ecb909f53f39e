import { existsSync } from 'node:fs';
import type { ConversationItem } from '@parley/core';
import { type MemoryStore, storeSession } from '@parley/memory';
import type { TranscriptPrinter } from '../transcript-printer.js';

/** Where the demo keeps the call: a store, and how to name it for the reader. */
export interface DemoMemory {
  store: MemoryStore;
  /** E.g. `PGlite at /tmp/parley-demo-memory`. */
  label: string;
  /** Closes the store if the demo opened it. */
  close(): Promise<void>;
}

/**
 * Opens the embedded store (PGlite, persisted to `dataDir`). A new directory is initialised first, which takes a few
 * seconds of CPU once; the demo says so rather than seeming to hang.
 */
export async function openDemoMemory(dataDir: string, printer: TranscriptPrinter): Promise<DemoMemory> {
  if (!existsSync(dataDir)) {
    printer.say(
      'memory',
      `preparing the embedded store (PGlite at ${dataDir}; first run only, a few seconds)`,
    );
  }
  const { openPGliteStore } = await import('@parley/memory/pglite');
  const store = await openPGliteStore({ dataDir });
  return { store, label: `PGlite at ${dataDir}`, close: () => store.close() };
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
