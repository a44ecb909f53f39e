import type { RealtimeCommand } from '@parley/core';

/**
 * A harness's `waitForCommand`: resolves with the matching commands once `count` (default 1) are among `commands()`, checked now and after each
 * client event `onClientEvent` reports; rejects after `timeoutMs` (default 2000) naming what did arrive.
 */
export function waitForCommands(
  commands: () => RealtimeCommand[],
  onClientEvent: (listener: () => void) => () => void,
  match: RealtimeCommand['type'] | ((command: RealtimeCommand) => boolean),
  options: { count?: number; timeoutMs?: number },
): Promise<RealtimeCommand[]> {
  const count = options.count ?? 1;
  const test = typeof match === 'string' ? (c: RealtimeCommand) => c.type === match : match;
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const found = commands().filter(test);
      if (found.length < count) return;
      unsubscribe();
      clearTimeout(timer);
      resolve(found);
    };
    const unsubscribe = onClientEvent(check);
    const timer = setTimeout(() => {
      unsubscribe();
      const seen = [...new Set(commands().map((c) => c.type))];
      reject(
        new Error(
          `Timed out waiting for ${count} × ${String(match)}; received: ${seen.join(', ') || 'nothing'}`,
        ),
      );
    }, options.timeoutMs ?? 2000);
    check();
  });
}
