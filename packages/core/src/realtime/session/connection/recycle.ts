import { type Clock, type LongTimeout, setLongTimeout } from '../../../clock.js';
import { RECYCLE_RECHECK_MS } from '../../../constants.js';
import type { ParleyError } from '../../../errors.js';
import { errorText } from '../../../logger.js';
import type { RealtimeConnection } from '../../seam.js';
import { ConnectionLostError, SessionClosedError } from '../errors.js';
import type { SessionState } from '../session-state.js';
import type { OpenedConnection } from './connection-steps.js';
import { type ResolvedReconnectOptions, reconnectDelayMs } from './reconnect-options.js';
import type { Reconnection } from './reconnection.js';

/** The connection-lifecycle steps a recycle takes. */
export interface RecycleSteps<TContext> {
  /** `resume`: with the session's resume token, where it has one. */
  open(signal: AbortSignal, resume: boolean): Promise<OpenedConnection<TContext>>;
  release(reason: ParleyError): Promise<void>;
  /** No turn is under way: no response, no request, no tool, no approval, the user is not speaking. */
  betweenTurns(): boolean;
}

/**
 * Proactive recycling: when a connection says when it expires (`expiresAt` when it opens, `session_expiring`
 * later; the latest counts), a new one is opened between turns shortly before (never before half the time left), and swapped in through the reconnection's replay, reported as
 * a `recycle`. A turn that begins meanwhile postpones it; a failed open is a `recycle_failed` warning,
 * retried with the reconnect backoff.
 */
export class Recycler<TContext> {
  readonly #state: SessionState<TContext>;
  readonly #clock: Clock;
  readonly #options: ResolvedReconnectOptions;
  readonly #reconnection: Reconnection<TContext>;
  readonly #steps: RecycleSteps<TContext>;
  #work: Set<Promise<void>> | undefined;
  #abort: AbortController | undefined;
  #timer: LongTimeout | undefined;
  #failures = 0;
  #stopped = false;
  /** The limit the current plan follows. */
  #expiresAt: number | undefined;

  constructor(
    state: SessionState<TContext>,
    clock: Clock,
    options: ResolvedReconnectOptions,
    reconnection: Reconnection<TContext>,
    steps: RecycleSteps<TContext>,
  ) {
    this.#state = state;
    this.#clock = clock;
    this.#options = options;
    this.#reconnection = reconnection;
    this.#steps = steps;
  }

  /** The session adopted `connection`: plans its recycle when it says when it expires. */
  plan(connection: RealtimeConnection): void {
    this.#failures = 0;
    this.#plan(connection, connection.expiresAt);
  }

  /**
   * The provider stated or moved the live connection's limit: plans the recycle anew, unless the time is the one
   * planned for or a recycle is already opening its replacement.
   */
  expiring(connection: RealtimeConnection, expiresAt: number): void {
    if (expiresAt === this.#expiresAt || (this.#work?.size ?? 0) > 0) return;
    this.#plan(connection, expiresAt);
  }

  #plan(connection: RealtimeConnection, expiresAt: number | undefined): void {
    this.cancelTimer();
    this.#expiresAt = expiresAt;
    const options = this.#options;
    if (!options.enabled || !options.recycle || this.#stopped) return;
    if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) return;
    // The provider states wall-clock time; the wait runs on the session's clock.
    const remaining = expiresAt - Date.now();
    if (remaining <= 0) return;
    // Never before half the lifetime: a limit shorter than the margin must not make it recycle at once.
    const wait = Math.max(remaining - options.recycleBeforeExpiryMs, remaining / 2);
    this.#timer = setLongTimeout(this.#clock, () => this.#due(connection), wait);
  }

  /** A recycle being opened is void (the connection was lost): it is dropped. */
  abort(reason: ParleyError): void {
    this.#abort?.abort(reason);
  }

  cancelTimer(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  /** Aborts recycling and waits until nothing of it is left (timers, connections). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.cancelTimer();
    this.#abort?.abort(new SessionClosedError());
    while (this.#work && this.#work.size > 0) await Promise.allSettled([...this.#work]);
  }

  #stillLive(connection: RealtimeConnection): boolean {
    const state = this.#state;
    return (
      !this.#stopped && !state.closing && state.status === 'connected' && state.connection === connection
    );
  }

  #due(connection: RealtimeConnection): void {
    this.#timer = undefined;
    if (!this.#stillLive(connection)) return;
    if (!this.#steps.betweenTurns()) {
      this.#schedule(connection, RECYCLE_RECHECK_MS);
      return;
    }
    const tracked: Promise<void> = this.#recycle(connection)
      .catch(() => {})
      .finally(() => this.#work?.delete(tracked));
    this.#work ??= new Set();
    this.#work.add(tracked);
  }

  #schedule(connection: RealtimeConnection, ms: number): void {
    this.cancelTimer();
    this.#timer = setLongTimeout(this.#clock, () => this.#due(connection), ms);
  }

  /** Opens the next connection while the current one serves, then swaps them if it is still between turns. */
  async #recycle(current: RealtimeConnection): Promise<void> {
    const controller = new AbortController();
    this.#abort = controller;
    const { signal } = controller;
    let opened: OpenedConnection<TContext>;
    try {
      opened = await this.#steps.open(signal, true);
    } catch (error) {
      if (signal.aborted || !this.#stillLive(current)) return;
      this.#failures++;
      const retry = this.#failures < this.#options.maxAttempts;
      const message = errorText(error);
      this.#state.emit({
        type: 'warning',
        code: 'recycle_failed',
        message:
          `Could not open a connection to replace the current one before its session limit (${message}); ` +
          `the current connection stays in use${retry ? ' and the session tries again' : ''}.`,
      });
      if (retry) this.#schedule(current, reconnectDelayMs(this.#options, this.#failures + 1));
      return;
    }
    if (
      signal.aborted ||
      !this.#stillLive(current) ||
      !this.#steps.betweenTurns() ||
      opened.agent !== this.#state.agent
    ) {
      // A turn began (or the agent changed) meanwhile: try again later with a fresh connection.
      await opened.connection.close().catch(() => {});
      if (!signal.aborted && this.#stillLive(current)) this.#schedule(current, RECYCLE_RECHECK_MS);
      return;
    }
    // Swap: the same path as a reconnect, with this connection as its first attempt.
    this.#state.status = 'reconnecting';
    const released = this.#steps.release(new ConnectionLostError('The realtime connection was recycled.'));
    this.#reconnection.start('recycle', undefined, released, opened);
  }
}
