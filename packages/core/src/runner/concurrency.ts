/** A task that honours the signal it is given. */
export type SignalTask<T> = (signal: AbortSignal) => Promise<T>;

/**
 * Runs tasks concurrently under a signal linked to `parent`. When one fails, the others are aborted (with
 * that failure as the reason) and awaited; then the first failure is thrown. Nothing is left running.
 *
 * With `abortParent`, the tasks get `parent` itself and a failure aborts it through `abortParent`: for an
 * owner that ends anyway when a task fails (a run and its batches of tools), which saves a linked controller
 * and a listener per batch. The owner must tell such an abort apart from being cancelled.
 */
export async function runAllOrAbort<T>(
  parent: AbortSignal,
  tasks: readonly SignalTask<T>[],
  abortParent?: (reason: unknown) => void,
): Promise<T[]> {
  // Nothing to abort on failure with fewer than two tasks: skip the linked signal.
  if (tasks.length === 0) return [];
  if (tasks.length === 1) return [await tasks[0]!(parent)];
  if (abortParent) return await runLinked(parent, abortParent, tasks);
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', onParentAbort, { once: true });
  try {
    return await runLinked(controller.signal, (reason) => controller.abort(reason), tasks);
  } finally {
    parent.removeEventListener('abort', onParentAbort);
  }
}

function runLinked<T>(
  signal: AbortSignal,
  abort: (reason: unknown) => void,
  tasks: readonly SignalTask<T>[],
): Promise<T[]> {
  return new Promise<T[]>((resolve, reject) => {
    const values = new Array<T>(tasks.length);
    let pending = tasks.length;
    let failure: { error: unknown } | undefined;
    const settled = () => {
      pending -= 1;
      if (pending > 0) return;
      if (failure) reject(failure.error);
      else resolve(values);
    };
    const failed = (error: unknown) => {
      if (!failure) {
        failure = { error };
        if (!signal.aborted) abort(error);
      }
      settled();
    };
    for (let index = 0; index < tasks.length; index++) {
      let task: Promise<T>;
      try {
        task = tasks[index]!(signal);
      } catch (error) {
        // A synchronous throw fails the batch like a rejection (the tasks after it start already aborted).
        failed(error);
        continue;
      }
      task.then((value) => {
        values[index] = value;
        settled();
      }, failed);
    }
  });
}

/** Throws the signal's reason if it is aborted. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}
