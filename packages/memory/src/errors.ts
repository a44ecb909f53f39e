import { ParleyError } from '@parley/core';
import { brand } from '@parley/core/internal';

/** A store could not do what was asked; `code` says why (e.g. `driver_missing`, `store_closed`). */
export class MemoryStoreError extends ParleyError {
  static {
    brand(MemoryStoreError, 'memory.MemoryStoreError');
  }

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** The error for a store used after `close()`. */
export function storeClosed(store: string): MemoryStoreError {
  return new MemoryStoreError('store_closed', `${store} was closed; open a new one to read or write.`);
}

/** Checks a session or run id: a non-empty string. */
export function checkId(kind: 'sessionId' | 'runId', id: unknown): asserts id is string {
  if (typeof id !== 'string' || id.length === 0) {
    throw new MemoryStoreError(
      'invalid_id',
      `${kind} must be a non-empty string, got ${JSON.stringify(id)}.`,
    );
  }
}

/** Checks a `getItems` limit: undefined or a non-negative integer. */
export function checkLimit(limit: unknown): asserts limit is number | undefined {
  if (limit !== undefined && !(Number.isInteger(limit) && (limit as number) >= 0)) {
    throw new MemoryStoreError(
      'invalid_limit',
      `limit must be a non-negative integer, got ${String(limit)}.`,
    );
  }
}

/** Loads an optional peer dependency, or says which package to install. */
export async function loadDriver<T>(name: string, load: () => Promise<T>, store: string): Promise<T> {
  try {
    return await load();
  } catch (cause) {
    throw new MemoryStoreError(
      'driver_missing',
      `${store} needs the "${name}" package: install it next to @parley/memory (e.g. pnpm add ${name}).`,
      { cause },
    );
  }
}
