import type { RunContext } from '../../../context.js';
import type { ParleyError } from '../../../errors.js';
import { errorText } from '../../../logger.js';
import { releaseToolSources } from '../../../tool-source.js';
import type { RealtimeConnection, RealtimeEvent } from '../../seam.js';
import { ConnectionLostError, RealtimeConnectError, SessionClosedError } from '../errors.js';
import type { RealtimeReconnectReason } from '../events/events.js';
import { dropLostTurn, type TurnSources } from '../history/lost-turn.js';
import type { SessionState } from '../session-state.js';
import type { ConnectionSteps, OpenedConnection } from './connection-steps.js';
import type { Reconnection } from './reconnection.js';
import type { Recycler } from './recycle.js';

export type { OpenedConnection } from './connection-steps.js';

/** What {@link ConnectionLifecycle} needs from its session. */
export interface ConnectionLifecyclePort<TContext> {
  readonly state: SessionState<TContext>;
  readonly steps: ConnectionSteps<TContext>;
  readonly reconnection: Reconnection<TContext>;
  readonly recycler: Recycler<TContext>;
  /** What a lost turn is read from, besides the state and the turn activity. */
  readonly turn: Omit<TurnSources<TContext>, 'state' | 'activity'>;
  /** Settles once no agent switch is under way. */
  switchesIdle(): Promise<void>;
}

/**
 * The connection lifecycle of a session, the one owner of its connection: connect (releasing what it acquired
 * when it fails), close (idempotent), the end of a connection (lost-turn reporting, then reconnecting or
 * `disconnected`). Reconnection ({@link Reconnection}) and proactive recycling ({@link Recycler}) take the same
 * {@link ConnectionSteps}. Status changes happen here and in those two.
 */
export class ConnectionLifecycle<TContext> {
  readonly #settings: { readonly runContext: RunContext<TContext>; readonly provider: string };
  readonly #port: ConnectionLifecyclePort<TContext>;
  #connectAbort: AbortController | undefined;
  #connecting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  /** A session seeded from memory: its first connection gets the history replayed. */
  #replayOnConnect = false;

  constructor(
    settings: { readonly runContext: RunContext<TContext>; readonly provider: string },
    port: ConnectionLifecyclePort<TContext>,
  ) {
    this.#settings = settings;
    this.#port = port;
  }

  /** The next connect replays the history (loaded from memory) into the new conversation, as a reconnect does. */
  replayOnConnect(): void {
    this.#replayOnConnect = true;
  }

  /** While connecting or reconnecting: settles when that attempt does. */
  get pending(): Promise<void> | undefined {
    return this.#connecting ?? this.#port.reconnection.pending;
  }

  /** See `RealtimeSession.connect()`. */
  connect(): Promise<void> {
    const { state, reconnection } = this.#port;
    if (state.closing || state.status === 'closed') return Promise.reject(new SessionClosedError());
    if (state.status === 'connected') return Promise.resolve();
    if (state.status === 'reconnecting') return reconnection.pending ?? Promise.resolve();
    if (!this.#connecting) {
      this.#connecting = this.#connect().finally(() => {
        this.#connecting = undefined;
      });
    }
    return this.#connecting;
  }

  /** See `RealtimeSession.close()`. */
  close(): Promise<void> {
    if (!this.#closing) {
      const { state, steps } = this.#port;
      const closed = state.status === 'closed';
      state.closing = true;
      this.#closing = (closed ? steps.closeUnclosed() : this.#close()).catch((error: unknown) => {
        this.#closing = undefined;
        throw error;
      });
    }
    return this.#closing;
  }

  /** The live connection turned out not to be open any more while the session still counted it as live. */
  connectionLost(connection: RealtimeConnection, detail: string): void {
    if (connection === this.#port.state.connection) this.ended(detail, 'connection_lost');
  }

  /**
   * Sees every event of the live connection but content deltas before the router hands it on (the turn activity,
   * the replay's echoes); `true` means "drop it" (an echo of the replay).
   */
  observe(event: RealtimeEvent): boolean {
    return this.#port.steps.observe(event);
  }

  /** The provider issued a resume token for the live connection's conversation. */
  resumeToken(event: Extract<RealtimeEvent, { type: 'resume_token' }>): void {
    this.#port.state.resumption.tokenIssued(event, this.#port.turn.history.items);
  }

  /** The provider stated (or moved) when the live connection's session ends: the recycle follows the latest. */
  expiring(expiresAt: number): void {
    const live = this.#port.state.connection;
    if (live) this.#port.recycler.expiring(live, expiresAt);
  }

  /**
   * The live connection ended: the provider closed it (`connection_lost`), ended the session at its limit
   * (`session_expired`), or failed fatally (no `reconnect`). The lost turn is reported; then the session
   * reconnects when it may, else it is `disconnected`.
   */
  ended(detail: string, reconnect?: Exclude<RealtimeReconnectReason, 'recycle'>): void {
    const { state, steps, reconnection, recycler } = this.#port;
    if (state.status !== 'connected') return;
    const release = (reason: ParleyError) => steps.release(reason);
    if (reconnect && reconnection.available && !state.closing) {
      recycler.abort(new ConnectionLostError());
      state.status = 'reconnecting';
      const error = new ConnectionLostError(
        `The realtime connection was lost (${detail}); the session is reconnecting and this request was dropped. ` +
          'Ask again after the reconnected event.',
      );
      const released = dropLostTurn(this.#turn(), release, error, detail, true);
      reconnection.start(reconnect, detail, released);
      return;
    }
    state.status = 'disconnected';
    void dropLostTurn(this.#turn(), release, new ConnectionLostError(), detail, false);
    state.emit({ type: 'connection_status', status: 'disconnected', reason: detail });
    state.emit({ type: 'agent_done', agent: state.agent, reason: 'disconnect' });
    state.hub.endIterators();
  }

  async #connect(): Promise<void> {
    const { state, steps, reconnection } = this.#port;
    await steps.releasing;
    if (state.closing) throw new SessionClosedError();
    const previousStatus = state.status;
    const controller = new AbortController();
    this.#connectAbort = controller;
    state.status = 'connecting';
    state.emit({ type: 'connection_status', status: 'connecting' });
    let opened: OpenedConnection<TContext> | undefined;
    try {
      opened = await steps.open(controller.signal);
      if (controller.signal.aborted) throw controller.signal.reason;
      steps.adopt(opened);
      this.#connectAbort = undefined;
      if (this.#replayOnConnect) {
        reconnection.replayHistory();
        this.#replayOnConnect = false;
      }
      for (const warning of opened.warnings) state.emit({ type: 'warning', ...warning });
      state.emit({ type: 'connection_status', status: 'connected' });
      state.emit({ type: 'agent_started', agent: state.agent });
    } catch (error) {
      if (opened && state.connection !== opened.connection) await opened.connection.close().catch(() => {});
      // The tool sources a failed first connect started are not left running for a session that may never close.
      const released = previousStatus !== 'disconnected' && releaseToolSources(this.#settings.runContext);
      if (released) await released;
      this.#connectAbort = undefined;
      if (controller.signal.aborted || state.closing) throw new SessionClosedError();
      state.status = previousStatus === 'disconnected' ? 'disconnected' : 'idle';
      state.emit({ type: 'connection_status', status: 'disconnected', reason: 'connect_failed' });
      if (error instanceof RealtimeConnectError) throw error;
      const detail = errorText(error);
      throw new RealtimeConnectError(`Could not connect to "${this.#settings.provider}": ${detail}`, {
        cause: error,
      });
    }
  }

  async #close(): Promise<void> {
    const { state, steps, reconnection, recycler, turn } = this.#port;
    await Promise.all([recycler.stop(), reconnection.stop()]);
    this.#connectAbort?.abort(new SessionClosedError());
    await this.#connecting?.catch(() => {});
    const agentWasActive = state.status === 'connected' || state.status === 'reconnecting';
    state.status = 'closed';
    turn.unacknowledged.dropCarried();
    await steps.release(new SessionClosedError());
    await this.#port.switchesIdle();
    const released = releaseToolSources(this.#settings.runContext);
    if (released) await released;
    if (agentWasActive) state.emit({ type: 'agent_done', agent: state.agent, reason: 'close' });
    state.emit({ type: 'connection_status', status: 'closed' });
    state.hub.end();
    steps.throwUnclosed();
  }

  #turn(): TurnSources<TContext> {
    const { state, steps, turn } = this.#port;
    return { ...turn, state, activity: steps.activity };
  }
}
