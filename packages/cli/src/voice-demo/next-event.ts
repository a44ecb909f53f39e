import type { RealtimeSession, RealtimeSessionEventOf, RealtimeSessionEventType } from '@parley/core';

/**
 * The `count`-th event of `type` (matching `match`) from now on. Subscribe before the action that causes it;
 * the listener is removed once it resolves.
 */
export function nextEvent<T extends RealtimeSessionEventType>(
  session: RealtimeSession,
  type: T,
  match: (event: RealtimeSessionEventOf<T>) => boolean = () => true,
  count = 1,
): Promise<RealtimeSessionEventOf<T>> {
  let seen = 0;
  return new Promise((resolve) => {
    const off = session.on(type, (event) => {
      if (!match(event) || ++seen < count) return;
      off();
      resolve(event);
    });
  });
}
