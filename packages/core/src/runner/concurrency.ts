/** A task that honours the signal it is given. */
export type SignalTask<T> = (signal: AbortSignal) => Promise<T>;

/**
 * Runs tasks concurrently under a signal linked to `parent`. When one fails, the others are aborted (with
 * that failure as the reason) and awaited; then the first failure is thrown. Nothing is left running.
 */
export async function runAllOrAbort<T>(
  parent: AbortSignal,
  tasks: readonly SignalTask<T>[],
  link?: ReusableAbortLink,
): Promise<T[]> {
  // Nothing to abort on failure with fewer than two tasks: skip the linked signal.
  if (tasks.length === 0) return [];
  if (tasks.length === 1) return [await tasks[0]!(parent)];
  if (link) return await runLinked(link.controller(), tasks);
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', onParentAbort, { once: true });
  try {
    return await runLinked(controller, tasks);
  } finally {
    parent.removeEventListener('abort', onParentAbort);
  }
}

/**
 * A controller linked to `parent` once and shared by batches that never overlap (a run's tool batches run one
 * turn at a time), so a batch does not pay for a controller and a listener of its own. A batch that fails aborts
 * it; the next batch then gets a fresh one.
 */
export class ReusableAbortLink {
  readonly #parent: AbortSignal;
  #controller: AbortController | undefined;

  constructor(parent: AbortSignal) {
    this.#parent = parent;
  }

  controller(): AbortController {
    const current = this.#controller;
    if (current && !current.signal.aborted) return current;
    const parent = this.#parent;
    const controller = new AbortController();
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener('abort', () => controller.abort(parent.reason), { once: true });
    this.#controller = controller;
    return controller;
  }
}

function runLinked<T>(controller: AbortController, tasks: readonly SignalTask<T>[]): Promise<T[]> {
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
        controller.abort(error);
      }
      settled();
    };
    for (let index = 0; index < tasks.length; index++) {
      const task = tasks[index]!;
      // Each task starts in a microtask of its own, as if awaited: a synchronous throw is its rejection.
      Promise.resolve(controller.signal)
        .then(task)
        .then((value) => {
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
