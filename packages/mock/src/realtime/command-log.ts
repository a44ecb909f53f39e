import type { RealtimeCommand } from '@parley/core';

/** Commands in the order received, and waiters for the ones a test expects. */
export class CommandLog {
  /** Every command recorded, in order. */
  readonly commands: RealtimeCommand[] = [];
  readonly #waiters = new Set<() => boolean>();

  /** Records `command` and wakes the waiters it satisfies. */
  record(command: RealtimeCommand): void {
    this.commands.push(command);
    for (const check of [...this.#waiters]) check();
  }

  /** Resolves once `count` recorded commands match `predicate` (counting earlier ones). */
  waitFor(predicate: (command: RealtimeCommand) => boolean, count: number): Promise<RealtimeCommand[]> {
    return new Promise((resolve) => {
      const check = () => {
        const matching = this.commands.filter(predicate);
        if (matching.length < count) return false;
        this.#waiters.delete(check);
        resolve(matching);
        return true;
      };
      if (!check()) this.#waiters.add(check);
    });
  }
}
