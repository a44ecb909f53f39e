import { type Clock, delay, ParleyError } from '@parley/core';
import { brand } from '@parley/core/internal';

/** The voice demo stopped making progress: a step it waited for did not happen in time. */
export class VoiceDemoStalledError extends ParleyError {
  static {
    brand(VoiceDemoStalledError, 'cli.VoiceDemoStalledError');
  }

  constructor(step: string, ms: number) {
    super(
      'voice_demo_stalled',
      `The voice demo waited ${ms} ms for "${step}" and it did not happen; run it again, or report a bug with this output.`,
    );
  }
}

/** Waits for `promise`, failing with {@link VoiceDemoStalledError} after `ms` on `clock`; the timer never outlives the wait. */
export async function guarded<T>(clock: Clock, ms: number, step: string, promise: Promise<T>): Promise<T> {
  const timer = new AbortController();
  const timeout = delay(clock, ms, timer.signal).then(
    () => Promise.reject(new VoiceDemoStalledError(step, ms)),
    () => new Promise<never>(() => {}),
  );
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    timer.abort();
  }
}
