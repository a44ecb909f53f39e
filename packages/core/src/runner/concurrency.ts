/** A task that honours the signal it is given. */
export type SignalTask<T> = (signal: AbortSignal) => Promise<T>;

/**
 * Runs tasks concurrently under a signal linked to `parent`. When one fails, the others are aborted (with
 * that failure as the reason) and awaited; then the first failure is thrown. Nothing is left running.
 */
export async function runAllOrAbort<T>(parent: AbortSignal, tasks: readonly SignalTask<T>[]): Promise<T[]> {
  // Nothing to abort on failure with fewer than two tasks: skip the linked signal.
  if (tasks.length === 0) return [];
  if (tasks.length === 1) return [await tasks[0]!(parent)];
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', onParentAbort, { once: true });
  let failure: { error: unknown } | undefined;
  try {
    const settled = await Promise.allSettled(
      tasks.map((task) =>
        Promise.resolve()
          .then(() => task(controller.signal))
          .catch((error: unknown) => {
            if (!failure) {
              failure = { error };
              controller.abort(error);
            }
            throw error;
          }),
      ),
    );
    if (failure) throw failure.error;
    return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
  } finally {
    parent.removeEventListener('abort', onParentAbort);
  }
}

/** Throws the signal's reason if it is aborted. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}
