import type { Clock } from '@parley/core';

/**
 * The wait for a socket's close event once a connection has started closing it, bounded by `timeoutMs`: `closed()`
 * (called from the close listener) ends it at once; at the deadline `giveUp()` releases the socket without its
 * closing handshake, and the wait ends anyway.
 */
export function closeWait(
  clock: Clock,
  timeoutMs: number,
  giveUp: () => void,
): { done: Promise<void>; closed: () => void } {
  let closed!: () => void;
  const done = new Promise<void>((resolve) => {
    const timer = clock.setTimeout(() => {
      giveUp();
      resolve();
    }, timeoutMs);
    closed = () => {
      clock.clearTimeout(timer);
      resolve();
    };
  });
  return { done, closed };
}
