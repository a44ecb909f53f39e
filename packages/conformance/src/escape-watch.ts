/** What a test's `beforeEach` / `afterEach` hold to fail the test that let an error escape. */
export interface EscapeWatch {
  /** Starts collecting (once per test). */
  start(): void;
  /**
   * Stops collecting once the tasks the test left queued have run (two macrotask turns), and resolves with what
   * escaped: `[]` when nothing did.
   */
  stop(): Promise<unknown[]>;
}

interface NodeGlobals {
  setImmediate(callback: () => void): unknown;
}

interface ProcessEvents {
  on(event: 'unhandledRejection' | 'uncaughtException', listener: (reason: unknown) => void): unknown;
  off(event: 'unhandledRejection' | 'uncaughtException', listener: (reason: unknown) => void): unknown;
}

/**
 * Collects what escapes as an unhandled rejection or an uncaught exception (a raw throw that no error path of the
 * session caught) between `start()` and `stop()`, so a test that provokes failures (a failed write, a cut socket)
 * fails when one of them leaks instead of being reported:
 *
 * ```ts
 * const escapes = escapeWatch();
 * beforeEach(() => escapes.start());
 * afterEach(async () => expect(await escapes.stop()).toEqual([]));
 * ```
 *
 * Node only (it listens on `process`).
 */
export function escapeWatch(): EscapeWatch {
  const proc = (globalThis as { process?: ProcessEvents }).process;
  if (proc === undefined) throw new Error("escapeWatch() listens on Node's process: it runs on Node only.");
  const escaped: unknown[] = [];
  const onEscape = (reason: unknown) => escaped.push(reason);
  const turn = () =>
    new Promise<void>((resolve) => (globalThis as unknown as NodeGlobals).setImmediate(resolve));
  return {
    start() {
      escaped.length = 0;
      proc.on('unhandledRejection', onEscape);
      proc.on('uncaughtException', onEscape);
    },
    async stop() {
      await turn();
      await turn();
      proc.off('unhandledRejection', onEscape);
      proc.off('uncaughtException', onEscape);
      return escaped.splice(0);
    },
  };
}
