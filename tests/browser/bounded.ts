/** How long one step of a browser conversation may take before the test fails naming it. */
export const STEP_TIMEOUT_MS = 15_000;

/**
 * `promise`, or a rejection naming `what` once `ms` passed: every wait of the browser tests is bounded, so a stalled
 * step fails with what it was waiting for instead of hanging until the test's timeout. `what` may be a function,
 * read at the timeout (to say what had happened by then).
 */
export async function bounded<T>(
  what: string | (() => string),
  promise: Promise<T>,
  ms = STEP_TIMEOUT_MS,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const waited = typeof what === 'function' ? what() : what;
      reject(new Error(`Timed out after ${ms} ms waiting for ${waited}.`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
