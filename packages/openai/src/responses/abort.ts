/**
 * Settles with `promise`, or rejects with `signal.reason` as soon as `signal` aborts, even when the
 * underlying operation ignores its signal. A value that arrives after the abort goes to `onLate` so its
 * resources (a response body) can be released.
 */
export function abortable<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  onLate?: (value: T) => void,
): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) onLate?.(value);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** A controller that also aborts (with the same reason) when a parent signal aborts. */
export interface SignalLink {
  readonly signal: AbortSignal;
  abort(reason: unknown): void;
  /** Detaches from the parent; idempotent. */
  dispose(): void;
}

/** Links a new controller to `parent`, so one signal covers both the caller's abort and our own. */
export function linkSignal(parent: AbortSignal | undefined): SignalLink {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) onAbort();
  else parent?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    dispose: () => parent?.removeEventListener('abort', onAbort),
  };
}
