/**
 * Settles like `promise`, or rejects with `timeoutError()` once `ms` have passed, whichever comes first. The timer
 * is cleared either way, so nothing of it outlives the wait.
 */
export async function within<T>(promise: Promise<T>, ms: number, timeoutError: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(timeoutError()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A scenario's run (realtime or text), failing when it has not finished after `timeoutMs`. */
export function scenarioWithin(run: Promise<void>, timeoutMs: number): Promise<void> {
  return within(run, timeoutMs, () => new Error(`the scenario did not finish within ${timeoutMs} ms`));
}
