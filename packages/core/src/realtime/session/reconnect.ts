import type { Agent } from '../../agent.js';
import { type Clock, delay, type TimerHandle } from '../../clock.js';
import type { ParleyError } from '../../errors.js';
import type { RealtimeCommand, RealtimeConnection, RealtimeEvent } from '../seam.js';
import type { AgentSessionConfig, ConfigWarning } from './agent-config.js';
import { ConnectionLostError, ReconnectFailedError, SessionClosedError, TurnLostError } from './errors.js';
import type { RealtimeReconnectReason, RealtimeSessionEvent, RealtimeSessionStatus } from './events.js';
import type { RealtimeHistory } from './history.js';
import type { RealtimeFunctionCallHistoryItem } from './history-item.js';
import type { HistoryMirror } from './history-mirror.js';
import { planHistoryReplay, ReplayEchoes } from './history-replay.js';
import { TurnActivity } from './reconnect-activity.js';
import { type ResolvedReconnectOptions, reconnectDelayMs } from './reconnect-options.js';
import type { ResponseCoordinator } from './response-coordinator.js';
import type { ResponseTracker } from './response-tracker.js';

/** A connection opened for the session's current agent that is not yet the session's live one. */
export interface OpenedConnection<TContext> {
  readonly connection: RealtimeConnection;
  /** The agent whose configuration it was opened with. */
  readonly agent: Agent<TContext>;
  readonly agentConfig: AgentSessionConfig;
  readonly warnings: readonly ConfigWarning[];
}

/** What the {@link Reconnector} needs from its session. */
export interface ReconnectHost<TContext> {
  readonly clock: Clock;
  readonly options: ResolvedReconnectOptions;
  readonly autoToolReplyGeneration: boolean;
  readonly history: RealtimeHistory;
  readonly mirror: HistoryMirror<TContext>;
  readonly coordinator: ResponseCoordinator;
  readonly responses: ResponseTracker<TContext>;
  status(): RealtimeSessionStatus;
  setStatus(status: RealtimeSessionStatus): void;
  closing(): boolean;
  currentAgent(): Agent<TContext>;
  liveConnection(): RealtimeConnection | undefined;
  /** `true` when no local work is bound to the connection: tool and guardrail tasks, approvals, reply handles. */
  localWorkIdle(): boolean;
  /** Releases the live connection and everything bound to it (see the session's `#release`). */
  release(reason: ParleyError): Promise<void>;
  /** Opens a connection for the current agent, leaving the live one alone. */
  open(signal: AbortSignal): Promise<OpenedConnection<TContext>>;
  /** Makes `opened` the live connection (status `connected`); throws when it already closed. */
  adopt(opened: OpenedConnection<TContext>): void;
  send(command: RealtimeCommand): void;
  emit(event: RealtimeSessionEvent<TContext>): void;
  reportError(error: ParleyError): void;
}

/** A connection that drops this soon after a reconnect continues the outage's attempt count. */
const STABLE_CONNECTION_MS = 30_000;
/** How often a due recycle checks again whether the conversation is between turns. */
const RECYCLE_RECHECK_MS = 1_000;

const CUT_OFF_OUTPUT = (name: string) =>
  `Error: the call to "${name}" was cut off by a lost connection before it finished; its result is unknown.`;

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
 * Automatic reconnection and session recycling for a realtime session, provider-agnostic:
 *
 * - after an unexpected close or the provider's session limit, it reports what the turn in progress lost,
 *   retries with bounded attempts and exponential backoff on the session's clock, re-applies the agent's
 *   configuration (through `open`), replays the history into the new conversation and emits `reconnected`;
 *   when the attempts are exhausted the session becomes `disconnected`;
 * - when a connection says when it expires, it opens a new one between turns shortly before, swaps it in
 *   through the same replay, and reports it as a `recycle`.
 *
 * It owns its timers and background attempts: `stop()` aborts them and waits until none is left.
 */
export class Reconnector<TContext> {
  readonly #host: ReconnectHost<TContext>;
  readonly #activity: TurnActivity;
  readonly #echoes = new ReplayEchoes();
  readonly #work = new Set<Promise<void>>();
  #outage: Outage | undefined;
  #loopAbort: AbortController | undefined;
  #recycleAbort: AbortController | undefined;
  #recycleTimer: TimerHandle | undefined;
  #recycleFailures = 0;
  /** Attempts spent on the current outage (kept when a reconnected connection drops again soon). */
  #attempts = 0;
  #reconnectedAt: number | undefined;
  #stopped = false;

  constructor(host: ReconnectHost<TContext>) {
    this.#host = host;
    this.#activity = new TurnActivity(host.clock, host.autoToolReplyGeneration);
  }

  /** While the session is reconnecting: settles when it is connected again, rejects when it gave up or closed. */
  get pending(): Promise<void> | undefined {
    return this.#outage?.promise;
  }

  /** Sees every event of the live connection first; `true` means "drop it" (an echo of the replay). */
  observe(event: RealtimeEvent): boolean {
    if (event.type === 'item_added' && this.#echoes.consume(event.item)) return true;
    this.#activity.observe(event);
    return false;
  }

  /** The session adopted `connection`: plans its recycle when it says when it expires. */
  connected(connection: RealtimeConnection): void {
    this.#clearRecycleTimer();
    this.#recycleFailures = 0;
    const { options, clock } = this.#host;
    const expiresAt = connection.expiresAt;
    if (!options.enabled || !options.recycle || this.#stopped) return;
    if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) return;
    // The provider states wall-clock time; the wait runs on the session's clock.
    const remaining = expiresAt - Date.now();
    if (remaining <= 0) return;
    // Never before half the lifetime: a limit shorter than the margin must not make it recycle at once.
    const wait = Math.max(remaining - options.recycleBeforeExpiryMs, remaining / 2);
    this.#recycleTimer = clock.setTimeout(() => this.#recycleDue(connection), wait);
  }

  /** The session released its live connection: what was tracked for it is void. */
  released(): void {
    this.#clearRecycleTimer();
    this.#activity.reset();
    this.#echoes.clear();
  }

  /**
   * The live connection went away unexpectedly (`connection_lost`) or at the provider's limit
   * (`session_expired`). Returns `false` when reconnecting is off; the session then reports `disconnected`.
   */
  connectionLost(reason: Exclude<RealtimeReconnectReason, 'recycle'>, detail: string): boolean {
    const host = this.#host;
    if (!host.options.enabled || this.#stopped || host.closing()) return false;
    this.#recycleAbort?.abort(new ConnectionLostError());
    host.setStatus('reconnecting');
    const released = this.#dropTurn(
      new ConnectionLostError(
        `The realtime connection was lost (${detail}); the session is reconnecting and this request was dropped. ` +
          'Ask again after the reconnected event.',
      ),
      detail,
      true,
    );
    const recent =
      this.#reconnectedAt !== undefined && host.clock.now() - this.#reconnectedAt < STABLE_CONNECTION_MS;
    if (!recent) this.#attempts = 0;
    this.#startOutage(reason, detail, released);
    return true;
  }

  /**
   * The live connection went away and the session does not reconnect by itself (reconnecting is off, or the
   * provider ended it with a fatal error): the turn in progress is reported as a reconnect reports it, and the
   * connection is released. The caller has set the status.
   */
  disconnected(detail: string): Promise<void> {
    return this.#dropTurn(new ConnectionLostError(), detail, false);
  }

  /** Aborts reconnecting and recycling and waits until nothing of theirs is left (timers, connections). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#clearRecycleTimer();
    const closed = new SessionClosedError();
    this.#loopAbort?.abort(closed);
    this.#recycleAbort?.abort(closed);
    while (this.#work.size > 0) await Promise.allSettled([...this.#work]);
    this.#outage?.reject(closed);
    this.#outage = undefined;
  }

  // ── a lost turn ────────────────────────────────────────────────────────────────────────────

  /**
   * Reports what the turn in progress lost with the connection, and releases it (`error` fails what waited on
   * it): the streaming responses end with `response_done` (`failed`, `connection_lost`) and their messages are
   * marked interrupted, running tool calls get an output saying their result is unknown, and a
   * `TurnLostError` names it all. Returns the release.
   */
  #dropTurn(error: ConnectionLostError, detail: string, reconnecting: boolean): Promise<void> {
    const host = this.#host;
    const responseIds = [
      ...new Set([
        ...this.#activity.activeResponseIds,
        ...(host.coordinator.activeResponseId !== undefined ? [host.coordinator.activeResponseId] : []),
      ]),
    ];
    const clientRequestIds = host.coordinator.pendingRequests.map((r) => r.clientRequestId);
    const calls = host.history.items.filter(
      (item): item is RealtimeFunctionCallHistoryItem =>
        item.type === 'function_call' && item.output === undefined,
    );
    // Before the release, while the responses are still known.
    const conversations = responseIds.map((id) => host.responses.get(id)?.conversation ?? 'default');
    for (const id of responseIds) host.mirror.responseInterrupted(id);
    // The calls' tasks are cancelled with the connection; after a reconnect the model learns it in the replay.
    for (const call of calls) {
      host.history.updateCall(call.callId, { output: CUT_OFF_OUTPUT(call.name), status: 'completed' });
    }
    // Ephemeral-reply bookkeeping is drained by the release itself (the session's `#release`).
    const released = host.release(error);
    responseIds.forEach((responseId, i) => {
      host.emit({
        type: 'response_done',
        responseId,
        status: 'failed',
        conversation: conversations[i] ?? 'default',
        reason: 'connection_lost',
      });
    });
    if (responseIds.length + calls.length + clientRequestIds.length > 0) {
      host.reportError(
        new TurnLostError(
          { responseIds, callIds: calls.map((c) => c.callId), clientRequestIds },
          detail,
          reconnecting,
        ),
      );
    }
    return released;
  }

  // ── reconnecting ───────────────────────────────────────────────────────────────────────────

  /**
   * Runs the attempts of one outage in the background. `opened`, when given, is a connection that was
   * already opened (a recycle): the first attempt takes it over instead of opening one.
   */
  #startOutage(
    reason: RealtimeReconnectReason,
    detail: string | undefined,
    released: Promise<void>,
    opened?: OpenedConnection<TContext>,
  ): void {
    const current = outage();
    this.#outage = current;
    const controller = new AbortController();
    this.#loopAbort = controller;
    const settled = () => {
      if (this.#outage === current) this.#outage = undefined;
    };
    this.#track(
      this.#loop(reason, detail, released, controller.signal, opened).then(
        () => {
          settled();
          current.resolve();
        },
        (error: unknown) => {
          settled();
          current.reject(error);
        },
      ),
    );
  }

  async #loop(
    reason: RealtimeReconnectReason,
    detail: string | undefined,
    released: Promise<void>,
    signal: AbortSignal,
    preopened: OpenedConnection<TContext> | undefined,
  ): Promise<void> {
    const host = this.#host;
    const { maxAttempts } = host.options;
    let lastError: unknown;
    for (;;) {
      const attempt = ++this.#attempts;
      if (attempt > maxAttempts) {
        this.#attempts = 0;
        throw this.#giveUp(maxAttempts, lastError);
      }
      const opened = preopened;
      preopened = undefined;
      const delayMs = opened ? 0 : reconnectDelayMs(host.options, attempt);
      host.emit({
        type: 'reconnecting',
        reason,
        attempt,
        maxAttempts,
        delayMs,
        ...(detail !== undefined && { detail }),
        ...(lastError !== undefined && { error: lastError }),
      });
      try {
        if (delayMs > 0) await delay(host.clock, delayMs, signal);
        await released;
        await this.#resume(opened ?? (await host.open(signal)), reason, attempt, signal);
        return;
      } catch (error) {
        if (signal.aborted || this.#stopped) throw new SessionClosedError();
        lastError = error;
      }
    }
  }

  #giveUp(attempts: number, lastError: unknown): ReconnectFailedError {
    const host = this.#host;
    const error = new ReconnectFailedError(attempts, lastError);
    host.setStatus('disconnected');
    host.reportError(error);
    host.emit({ type: 'connection_status', status: 'disconnected', reason: 'reconnect_failed' });
    host.emit({ type: 'agent_end', agent: host.currentAgent(), reason: 'disconnect' });
    return error;
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
    const host = this.#host;
    if (signal.aborted || host.closing()) {
      await opened.connection.close().catch(() => {});
      throw new SessionClosedError();
    }
    try {
      host.adopt(opened);
    } catch (error) {
      await opened.connection.close().catch(() => {});
      throw error;
    }
    const plan = planHistoryReplay(host.history.items);
    try {
      this.#echoes.expect(plan.commands);
      for (const command of plan.commands) host.send(command);
    } catch (error) {
      host.setStatus('reconnecting');
      await host.release(new ConnectionLostError());
      throw error;
    }
    this.#reconnectedAt = host.clock.now();
    if (plan.skipped.length > 0) {
      host.emit({
        type: 'warning',
        code: 'history_not_replayed',
        message:
          `${plan.skipped.length} spoken message(s) had no transcript and were not replayed into the new ` +
          `conversation (${plan.skipped.join(', ')}); turn on input transcription to keep them.`,
      });
    }
    host.emit({ type: 'reconnected', reason, attempt, replayedItems: plan.commands.length });
  }

  // ── recycling ──────────────────────────────────────────────────────────────────────────────

  /** No turn is under way: no response, no request, no tool, no approval, the user is not speaking. */
  #betweenTurns(): boolean {
    const host = this.#host;
    return (
      this.#activity.quiet &&
      !host.coordinator.busy &&
      host.coordinator.pendingRequests.length === 0 &&
      host.localWorkIdle()
    );
  }

  #stillLive(connection: RealtimeConnection): boolean {
    const host = this.#host;
    return (
      !this.#stopped &&
      !host.closing() &&
      host.status() === 'connected' &&
      host.liveConnection() === connection
    );
  }

  #recycleDue(connection: RealtimeConnection): void {
    this.#recycleTimer = undefined;
    if (!this.#stillLive(connection)) return;
    if (!this.#betweenTurns()) {
      this.#scheduleRecycle(connection, RECYCLE_RECHECK_MS);
      return;
    }
    this.#track(this.#recycle(connection));
  }

  #scheduleRecycle(connection: RealtimeConnection, ms: number): void {
    this.#clearRecycleTimer();
    this.#recycleTimer = this.#host.clock.setTimeout(() => this.#recycleDue(connection), ms);
  }

  /** Opens the next connection while the current one serves, then swaps them if it is still between turns. */
  async #recycle(current: RealtimeConnection): Promise<void> {
    const host = this.#host;
    const controller = new AbortController();
    this.#recycleAbort = controller;
    const { signal } = controller;
    let opened: OpenedConnection<TContext>;
    try {
      opened = await host.open(signal);
    } catch (error) {
      if (signal.aborted || !this.#stillLive(current)) return;
      this.#recycleFailures++;
      const retry = this.#recycleFailures < host.options.maxAttempts;
      const message = error instanceof Error ? error.message : String(error);
      host.emit({
        type: 'warning',
        code: 'recycle_failed',
        message:
          `Could not open a connection to replace the current one before its session limit (${message}); ` +
          `the current connection stays in use${retry ? ' and the session tries again' : ''}.`,
      });
      if (retry) {
        this.#scheduleRecycle(current, reconnectDelayMs(host.options, this.#recycleFailures + 1));
      }
      return;
    }
    if (
      signal.aborted ||
      !this.#stillLive(current) ||
      !this.#betweenTurns() ||
      opened.agent !== host.currentAgent()
    ) {
      // A turn began (or the agent changed) meanwhile: try again later with a fresh connection.
      await opened.connection.close().catch(() => {});
      if (!signal.aborted && this.#stillLive(current)) this.#scheduleRecycle(current, RECYCLE_RECHECK_MS);
      return;
    }
    // Swap: the same path as a reconnect, with this connection as its first attempt.
    this.#attempts = 0;
    host.setStatus('reconnecting');
    const released = host.release(new ConnectionLostError('The realtime connection was recycled.'));
    this.#startOutage('recycle', undefined, released, opened);
  }

  // ── bookkeeping ────────────────────────────────────────────────────────────────────────────

  #track(work: Promise<void>): void {
    const tracked = work
      .catch(() => {})
      .finally(() => {
        this.#work.delete(tracked);
      });
    this.#work.add(tracked);
  }

  #clearRecycleTimer(): void {
    if (this.#recycleTimer === undefined) return;
    this.#host.clock.clearTimeout(this.#recycleTimer);
    this.#recycleTimer = undefined;
  }
}
