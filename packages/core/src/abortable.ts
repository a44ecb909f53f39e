/**
 * Settles like `work`, or rejects with the signal's reason as soon as `signal` aborts, so an app callback
 * that ignores its signal (an approval check, a guardrail, `onHandoff`) cannot keep a closing session, a
 * reconnect or a cancelled run waiting.
 */
export function abortable<T>(work: Promise<T> | T, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(work).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
