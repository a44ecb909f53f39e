import type { Clock } from '../../../clock.js';
import { delay } from '../../../clock.js';
import { STABLE_CONNECTION_MS } from '../../../constants.js';
import type { ParleyError } from '../../../errors.js';
import { ConnectionLostError, ReconnectFailedError, SessionClosedError, TurnLostError } from '../errors.js';
import type { RealtimeReconnectReason } from '../events/events.js';
import type { RealtimeHistory } from '../history/history.js';
import { planContextReplay, planHistoryReplay, type ReplayEchoes } from '../history/history-replay.js';
import { UnacknowledgedInputs } from '../history/unacknowledged-inputs.js';
import type { SessionState } from '../session-state.js';
import type { OpenedConnection } from './connection-steps.js';
import { type ResolvedReconnectOptions, reconnectDelayMs } from './reconnect-options.js';

/** The connection-lifecycle steps a reconnection takes. */
export interface ReconnectionSteps<TContext> {
  /** `resume`: with the session's resume token, where it has one. */
  open(signal: AbortSignal, resume: boolean): Promise<OpenedConnection<TContext>>;
  adopt(opened: OpenedConnection<TContext>): void;
  release(reason: ParleyError): Promise<void>;
}

interface Outage {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function outage(): Outage {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Joiners (connect(), updateAgent()) see the rejection; nobody joining must not make it unhandled.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * The outage loop of the connection lifecycle: bounded attempts with exponential backoff on the session's
 * clock, each opening a connection for the current agent (through the lifecycle), replaying the history into
 * it and announcing `reconnected`; when the attempts are exhausted the session becomes `disconnected`. A
 * recycle enters the same loop with its already opened connection as the first attempt. It owns its
 * background attempts: `stop()` aborts them and waits until none is left.
 */
export class Reconnection<TContext> {
  readonly #state: SessionState<TContext>;
  readonly #clock: Clock;
  readonly #options: ResolvedReconnectOptions;
  readonly #history: RealtimeHistory;
  readonly #echoes: ReplayEchoes;
  readonly #steps: ReconnectionSteps<TContext>;
  /** How the history goes into a new connection (see `historyReplayStrategy`). */
  readonly #replay: 'items' | 'context';
  /** User messages a cut carried over: replayed after the history. */
  readonly #inputs: UnacknowledgedInputs;
  /** The provider acknowledges replayed items (their echoes are expected and dropped). */
  readonly #acknowledged: boolean;
  #work: Set<Promise<void>> | undefined;
  #outage: Outage | undefined;
  #loopAbort: AbortController | undefined;
  /** Attempts spent on the current outage (kept when a reconnected connection drops again soon). */
  #attempts = 0;
  #reconnectedAt: number | undefined;
  #stopped = false;

  constructor(
    state: SessionState<TContext>,
    clock: Clock,
    options: ResolvedReconnectOptions,
    history: RealtimeHistory,
    echoes: ReplayEchoes,
    steps: ReconnectionSteps<TContext>,
    replay: 'items' | 'context' = 'items',
    inputs: UnacknowledgedInputs = new UnacknowledgedInputs(),
    acknowledged = true,
  ) {
    this.#acknowledged = acknowledged;
    this.#inputs = inputs;
    this.#replay = replay;
    this.#state = state;
    this.#clock = clock;
    this.#options = options;
    this.#history = history;
    this.#echoes = echoes;
    this.#steps = steps;
  }

  /** While the session is reconnecting: settles when it is connected again, rejects when it gave up or closed. */
  get pending(): Promise<void> | undefined {
    return this.#outage?.promise;
  }

  /** `false` once reconnecting is off or stopped: a lost connection then ends the session's connection. */
  get available(): boolean {
    return this.#options.enabled && !this.#stopped;
  }

  /**
   * Runs the attempts of one outage in the background, after `released`. `opened`, when given, is a
   * connection that was already opened (a recycle): the first attempt takes it over instead of opening one.
   */
  start(
    reason: RealtimeReconnectReason,
    detail: string | undefined,
    released: Promise<void>,
    opened?: OpenedConnection<TContext>,
  ): void {
    const recent =
      this.#reconnectedAt !== undefined && this.#clock.now() - this.#reconnectedAt < STABLE_CONNECTION_MS;
    if (opened || !recent) this.#attempts = 0;
    const current = outage();
    this.#outage = current;
    const controller = new AbortController();
    this.#loopAbort = controller;
    const settled = () => {
      if (this.#outage === current) this.#outage = undefined;
    };
    const work = this.#loop(reason, detail, released, controller.signal, opened).then(
      () => {
        settled();
        current.resolve();
      },
      (error: unknown) => {
        settled();
        current.reject(error);
      },
    );
    const tracked = work.finally(() => this.#work?.delete(tracked));
    this.#work ??= new Set();
    this.#work.add(tracked);
  }

  /** Aborts reconnecting and waits until nothing of it is left. */
  async stop(): Promise<void> {
    this.#stopped = true;
    const closed = new SessionClosedError();
    this.#loopAbort?.abort(closed);
    while (this.#work && this.#work.size > 0) await Promise.allSettled([...this.#work]);
    this.#outage?.reject(closed);
    this.#outage = undefined;
  }

  async #loop(
    reason: RealtimeReconnectReason,
    detail: string | undefined,
    released: Promise<void>,
    signal: AbortSignal,
    preopened: OpenedConnection<TContext> | undefined,
  ): Promise<void> {
    const { maxAttempts } = this.#options;
    let lastError: unknown;
    for (;;) {
      const attempt = ++this.#attempts;
      if (attempt > maxAttempts) {
        this.#attempts = 0;
        throw this.#giveUp(maxAttempts, lastError);
      }
      const opened = preopened;
      preopened = undefined;
      const delayMs = opened ? 0 : reconnectDelayMs(this.#options, attempt);
      this.#state.emit({
        type: 'reconnecting',
        reason,
        attempt,
        maxAttempts,
        delayMs,
        ...(detail !== undefined && { detail }),
        ...(lastError !== undefined && { error: lastError }),
      });
      try {
        if (delayMs > 0) await delay(this.#clock, delayMs, signal);
        await released;
        await this.#resume(opened ?? (await this.#steps.open(signal, true)), reason, attempt, signal);
        return;
      } catch (error) {
        if (signal.aborted || this.#stopped) throw new SessionClosedError();
        lastError = error;
      }
    }
  }

  #giveUp(attempts: number, lastError: unknown): ReconnectFailedError {
    const state = this.#state;
    const error = new ReconnectFailedError(attempts, lastError);
    state.status = 'disconnected';
    const itemIds = this.#inputs.dropCarried();
    if (itemIds.length > 0) {
      const lost = { responseIds: [], callIds: [], clientRequestIds: [], itemIds };
      state.reportError('session', new TurnLostError(lost, 'reconnecting gave up', false));
    }
    state.reportError('session', error);
    state.emit({ type: 'connection_status', status: 'disconnected', reason: 'reconnect_failed' });
    state.emit({ type: 'agent_done', agent: state.agent, reason: 'disconnect' });
    state.hub.endIterators();
    return error;
  }

  /**
   * Replays the history into the live connection (as items, or as context appends for an append-only provider),
   * warning about what cannot be replayed; returns how many commands it sent. Used after a reconnect, and on the
   * first connect of a session seeded from memory.
   */
  replayHistory(held?: Parameters<typeof planHistoryReplay>[1]): number {
    const state = this.#state;
    const byContext = this.#replay === 'context';
    const plan = byContext
      ? { commands: [], skipped: [], cut: [] }
      : planHistoryReplay(this.#history.items, held);
    const appends = byContext ? planContextReplay(this.#history.items, held) : [];
    if (this.#acknowledged) this.#echoes.expect(plan.commands);
    for (const command of plan.commands) state.send(command);
    for (const command of appends) state.send(command);
    if (plan.skipped.length > 0) {
      state.emit({
        type: 'warning',
        code: 'history_not_replayed',
        message:
          `${plan.skipped.length} spoken message(s) had no transcript and were not replayed into the new ` +
          `conversation (${plan.skipped.join(', ')}); turn on input transcription to keep them.`,
      });
    }
    if (plan.cut.length > 0) {
      state.emit({
        type: 'warning',
        code: 'history_not_replayed',
        message:
          `${plan.cut.length} spoken user message(s) were cut mid-transcription and were not replayed into the new ` +
          `conversation (${plan.cut.join(', ')}): their transcript is partial (marked interrupted in history).`,
      });
    }
    return plan.commands.length + appends.length;
  }

  /**
   * Makes `opened` the live connection, replays the history into it and announces it. Throws when it
   * cannot be used, having closed or released it.
   */
  async #resume(
    opened: OpenedConnection<TContext>,
    reason: RealtimeReconnectReason,
    attempt: number,
    signal: AbortSignal,
  ): Promise<void> {
    const state = this.#state;
    if (signal.aborted || state.closing) {
      await opened.connection.close().catch(() => {});
      throw new SessionClosedError();
    }
    try {
      this.#steps.adopt(opened);
    } catch (error) {
      await opened.connection.close().catch(() => {});
      throw error;
    }
    // A resumed conversation holds what its token restores: only the rest is replayed.
    const held = opened.resumed ? state.resumption.covered : undefined;
    // Sent before the cut and never acknowledged: after the history, as they came; their echoes enter the
    // history like any acknowledged message (they are not replay echoes).
    const carried = this.#inputs.carried;
    let replayed: number;
    try {
      replayed = this.replayHistory(held);
      for (const item of carried) {
        state.send({ type: 'createItem', item });
        this.#inputs.messageSent(item);
      }
      this.#inputs.replayed();
    } catch (error) {
      state.status = 'reconnecting';
      await this.#steps.release(new ConnectionLostError());
      throw error;
    }
    this.#reconnectedAt = this.#clock.now();
    state.emit({
      type: 'reconnected',
      reason,
      attempt,
      replayedItems: replayed + carried.length,
      ...(opened.resumed && { resumed: true }),
    });
  }
}
