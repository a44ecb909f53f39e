import type { RealtimeHistoryItem, RealtimeMessageHistoryItem, RealtimeSession } from '@parley/core';

/** The first `history_added` / `history_updated` snapshot of a message matching `match`, from now on. */
export function historyChange(
  session: RealtimeSession,
  match: (item: RealtimeMessageHistoryItem) => boolean,
): Promise<RealtimeMessageHistoryItem> {
  const isMatch = (item: RealtimeHistoryItem): item is RealtimeMessageHistoryItem =>
    item.type === 'message' && match(item);
  return new Promise((resolve) => {
    const offs = (['history_added', 'history_updated'] as const).map((type) =>
      session.on(type, ({ item }) => {
        if (!isMatch(item)) return;
        for (const off of offs) off();
        resolve(item);
      }),
    );
  });
}
