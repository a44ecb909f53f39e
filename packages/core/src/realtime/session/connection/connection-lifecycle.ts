import { abortable } from '../../../abortable.js';
import type { Agent } from '../../../agent.js';
import type { RunContext } from '../../../context.js';
import type { ParleyError } from '../../../errors.js';
import { errorText } from '../../../logger.js';
import { releaseToolSources } from '../../../tool-source.js';
import type { RealtimeConnection, RealtimeEvent } from '../../seam.js';
import {
  type AgentSessionConfig,
  agentSessionConfig,
  type ConfigWarning,
  initialSessionConfig,
} from '../agents/agent-config.js';
import type { AgentSwitcher } from '../agents/agent-switch.js';
import {
  historyReplayStrategy,
  sentContentStrategy,
  toolFollowUpStrategy,
} from '../capability-strategies.js';
import {
  ConnectionCloseError,
  ConnectionLostError,
  RealtimeConnectError,
  SessionClosedError,
  SessionNotConnectedError,
} from '../errors.js';
import type { RealtimeReconnectReason } from '../events/events.js';
import { TurnActivity } from '../events/turn-activity.js';
import type { TurnReports } from '../events/turn-reports.js';
import type { OutputGuardrailMonitor } from '../guardrails/output-guardrail-monitor.js';
import type { RealtimeHistory } from '../history/history.js';
import type { HistoryMirror } from '../history/history-mirror.js';
import { ReplayEchoes } from '../history/history-replay.js';
import { dropLostTurn } from '../history/lost-turn.js';
import type { UnacknowledgedInputs } from '../history/unacknowledged-inputs.js';
import type { ResolvedSessionOptions } from '../options.js';
import { bridgeAudioFormats } from '../playback/audio-format-bridge.js';
import type { Interruptions } from '../playback/interruption.js';
import type { MessageOrder } from '../playback/message-order.js';
import type { EphemeralResponses } from '../responses/ephemeral-responses.js';
import type { ResponseCoordinator } from '../responses/response-coordinator.js';
import type { ResponseRequests } from '../responses/response-requests.js';
import type { ResponseTracker } from '../responses/response-tracker.js';
import type { StaleResponses } from '../responses/stale-responses.js';
import type { SessionState } from '../session-state.js';
import type { TaskSet } from '../task-set.js';
import type { ApprovalBook } from '../tools/approvals.js';
import type { ToolExecutor } from '../tools/tool-executor.js';
import { Reconnection } from './reconnection.js';
import { Recycler } from './recycle.js';

/** A connection opened for the session's current agent that is not yet the session's live one. */
export interface OpenedConnection<TContext> {
  readonly connection: RealtimeConnection;
  /** The agent whose configuration it was opened with. */
  readonly agent: Agent<TContext>;
  readonly agentConfig: AgentSessionConfig;
  readonly warnings: readonly ConfigWarning[];
  /** It resumed the conversation of the session's resume token (it holds what the token restores). */
  readonly resumed: boolean;
}

/** The session's units whose state is bound to one connection. */
export interface ConnectionBoundParts<TContext> {
  readonly options: ResolvedSessionOptions<TContext>;
  readonly runContext: RunContext<TContext>;
  readonly history: RealtimeHistory;
  readonly mirror: HistoryMirror<TContext>;
  readonly unacknowledged: UnacknowledgedInputs;
  readonly tasks: TaskSet;
  readonly approvals: ApprovalBook<TContext>;
  readonly requests: ResponseRequests;
  readonly coordinator: ResponseCoordinator;
  readonly responses: ResponseTracker<TContext>;
  readonly stale: StaleResponses;
  readonly ephemeral: EphemeralResponses;
  readonly interruptions: Interruptions<TContext>;
  readonly messageOrder: MessageOrder;
  readonly executor: ToolExecutor<TContext>;
  readonly guardrails: OutputGuardrailMonitor<TContext>;
  readonly switcher: AgentSwitcher<TContext>;
  readonly turns: TurnReports<TContext>;
  /** Where the live connection's events go (the provider-event router). */
  route(connection: RealtimeConnection, event: RealtimeEvent): void;
}

/**
 * The connection lifecycle of a session, the one owner of its connection: connect (releasing what it acquired
 * when it fails), close (idempotent), release of everything bound to a connection, the end of a connection
 * (lost-turn reporting, then reconnecting or `disconnected`), reconnection ({@link Reconnection}) and proactive
 * recycling ({@link Recycler}). Status changes happen here and in those two.
 */
export class ConnectionLifecycle<TContext> {
  readonly #state: SessionState<TContext>;
  readonly #parts: ConnectionBoundParts<TContext>;
  readonly #activity: TurnActivity;
  readonly #echoes = new ReplayEchoes();
  readonly #reconnection: Reconnection<TContext>;
  readonly #recycler: Recycler<TContext>;
  #unsubscribe: (() => void) | undefined;
  #connectAbort: AbortController | undefined;
  #connecting: Promise<void> | undefined;
  #releasing: Promise<void> = Promise.resolve();
  #closing: Promise<void> | undefined;
  /** A session seeded from memory: its first connection gets the history replayed. */
  #replayOnConnect = false;
  /** Connections whose provider close failed: `close()` retries them. Created on first use. */
  #unclosed: Map<RealtimeConnection, unknown> | undefined;

  constructor(state: SessionState<TContext>, parts: ConnectionBoundParts<TContext>) {
    this.#state = state;
    this.#parts = parts;
    const { clock, reconnect, model } = parts.options;
    this.#activity = new TurnActivity(clock, toolFollowUpStrategy(model.capabilities) === 'provider');
    this.#reconnection = new Reconnection(
      state,
      clock,
      reconnect,
      parts.history,
      this.#echoes,
      this, // the lifecycle is the steps of both (no object of closures per session)
      historyReplayStrategy(model.capabilities),
      parts.unacknowledged,
      sentContentStrategy(model.capabilities) === 'provider',
    );
    this.#recycler = new Recycler(state, clock, reconnect, this.#reconnection, this);
    state.onConnectionLost = (connection, detail) => {
      if (connection === state.connection) this.ended(detail, 'connection_lost');
    };
  }

  /** The next connect replays the history (loaded from memory) into the new conversation, as a reconnect does. */
  replayOnConnect(): void {
    this.#replayOnConnect = true;
  }

  /** While connecting or reconnecting: settles when that attempt does. */
  get pending(): Promise<void> | undefined {
    return this.#connecting ?? this.#reconnection.pending;
  }

  /** See `RealtimeSession.connect()`. */
  connect(): Promise<void> {
    const state = this.#state;
    if (state.closing || state.status === 'closed') return Promise.reject(new SessionClosedError());
    if (state.status === 'connected') return Promise.resolve();
    if (state.status === 'reconnecting') return this.#reconnection.pending ?? Promise.resolve();
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
      const closed = this.#state.status === 'closed';
      this.#state.closing = true;
      this.#closing = (closed ? this.#closeUnclosed() : this.#close()).catch((error: unknown) => {
        this.#closing = undefined;
        throw error;
      });
    }
    return this.#closing;
  }

  /** Sees every event of the live connection before the router; `true` means "drop it" (an echo of the replay). */
  observe(event: RealtimeEvent): boolean {
    if (event.type === 'item_added') {
      this.#parts.unacknowledged.acknowledged(event.item);
      if (this.#echoes.consume(event.item)) return true;
    }
    this.#activity.observe(event);
    return false;
  }

  /** The provider issued a resume token for the live connection's conversation. */
  resumeToken(event: Extract<RealtimeEvent, { type: 'resume_token' }>): void {
    this.#state.resumption.tokenIssued(event, this.#parts.history.items);
  }

  /** The provider stated (or moved) when the live connection's session ends: the recycle follows the latest. */
  expiring(expiresAt: number): void {
    const live = this.#state.connection;
    if (live) this.#recycler.expiring(live, expiresAt);
  }

  /**
   * The live connection ended: the provider closed it (`connection_lost`), ended the session at its limit
   * (`session_expired`), or failed fatally (no `reconnect`). The lost turn is reported; then the session
   * reconnects when it may, else it is `disconnected`.
   */
  ended(detail: string, reconnect?: Exclude<RealtimeReconnectReason, 'recycle'>): void {
    const state = this.#state;
    if (state.status !== 'connected') return;
    if (reconnect && this.#reconnection.available && !state.closing) {
      this.#recycler.abort(new ConnectionLostError());
      state.status = 'reconnecting';
      const error = new ConnectionLostError(
        `The realtime connection was lost (${detail}); the session is reconnecting and this request was dropped. ` +
          'Ask again after the reconnected event.',
      );
      const released = dropLostTurn(this.#turn(), (reason) => this.release(reason), error, detail, true);
      this.#reconnection.start(reconnect, detail, released);
      return;
    }
    state.status = 'disconnected';
    void dropLostTurn(
      this.#turn(),
      (reason) => this.release(reason),
      new ConnectionLostError(),
      detail,
      false,
    );
    state.emit({ type: 'connection_status', status: 'disconnected', reason: detail });
    state.emit({ type: 'agent_done', agent: state.agent, reason: 'disconnect' });
    state.hub.endIterators();
  }

  /**
   * Opens a connection configured for the current agent; the live connection (if any) is left alone. `resume`: with
   * the session's resume token, where it has one (reconnects and recycles).
   */
  async open(signal: AbortSignal, resume = false): Promise<OpenedConnection<TContext>> {
    const { model, config: settings } = this.#parts.options;
    const agent = this.#state.agent;
    const agentConfig = await abortable(agentSessionConfig(agent, this.#parts.runContext, signal), signal);
    const { config, warnings } = initialSessionConfig(
      agentConfig,
      settings,
      model.capabilities,
      model.provider,
    );
    const rawEvents = this.#parts.options.rawEvents;
    const resumeToken = resume ? this.#state.resumption.token : undefined;
    const pending = model.connect({
      config,
      signal,
      ...(rawEvents && { rawEvents }),
      ...(resumeToken !== undefined && { resumeToken }),
    });
    const connection = await abortable(pending, signal).catch((error) => {
      if (signal.aborted) {
        // A provider that ignores the signal may still hand over a connection: release it then.
        pending.then((late) => late.close()).catch(() => {});
      }
      throw error;
    });
    const resumed = resumeToken !== undefined && connection.resumed === true;
    return { connection: bridgeAudioFormats(connection, config), agent, agentConfig, warnings, resumed };
  }

  /** Makes `opened` the live connection; throws `RealtimeConnectError` (unsubscribed again) if it already closed. */
  adopt(opened: OpenedConnection<TContext>): void {
    const state = this.#state;
    const live = opened.connection;
    const route = this.#parts.route;
    const unsubscribe = live.onEvent((event) => {
      try {
        route(live, event);
      } catch (error) {
        // A command a unit sent while handling the event found the connection gone: already reported.
        if (error instanceof SessionNotConnectedError && live.status !== 'open') return;
        throw error;
      }
    });
    if (live.status !== 'open') {
      unsubscribe();
      throw new RealtimeConnectError(
        `The connection to "${this.#parts.options.model.provider}" closed while the session was starting. Call connect() again.`,
      );
    }
    state.connection = live;
    state.resumption.adopted(opened.resumed);
    this.#unsubscribe = unsubscribe;
    state.agentConfig = opened.agentConfig;
    state.lifetime = new AbortController();
    state.status = 'connected';
    this.#recycler.plan(live);
  }

  /**
   * Releases the current connection and everything bound to it, once: listener, waiting responses,
   * approvals, tool and guardrail tasks (cancelled and awaited), then the connection itself.
   */
  release(reason: ParleyError): Promise<void> {
    const state = this.#state;
    const parts = this.#parts;
    const connection = state.connection;
    const unsubscribe = this.#unsubscribe;
    state.connection = undefined;
    this.#unsubscribe = undefined;
    state.lifetime.abort(reason);
    unsubscribe?.();
    this.#recycler.cancelTimer();
    this.#activity.reset();
    this.#echoes.clear();
    parts.requests.stopTimeouts();
    parts.stale.reset();
    parts.coordinator.reset();
    parts.ephemeral.reset();
    // Before what was heard is forgotten: turns still playing end with it.
    parts.turns.flush();
    parts.mirror.transcriptionsCut();
    parts.interruptions.reset();
    parts.messageOrder.reset();
    parts.options.playbackTracker.reset();
    parts.requests.failAll(reason);
    parts.approvals.clear();
    parts.unacknowledged.clear();
    const previous = this.#releasing;
    this.#releasing = (async () => {
      await previous;
      const abandoned = await parts.tasks.cancelAll(reason);
      if (abandoned > 0) {
        state.emit({
          type: 'warning',
          code: 'tasks_abandoned',
          message: `${abandoned} cancelled task(s) (a tool, a guardrail or a delegation) ignored their abort signal for ${parts.tasks.graceMs} ms; the session went on without them and ignores what they do now.`,
        });
      }
      parts.executor.reset();
      parts.guardrails.reset();
      parts.responses.clear();
      if (connection) {
        // Wrapped so a close() that throws rather than rejects is caught too.
        await (async () => connection.close())().catch((error: unknown) => {
          this.#unclosed ??= new Map();
          this.#unclosed.set(connection, error);
          state.reportError('session', new ConnectionCloseError(error));
        });
      }
    })();
    return this.#releasing;
  }

  async #connect(): Promise<void> {
    const state = this.#state;
    await this.#releasing;
    if (state.closing) throw new SessionClosedError();
    const previousStatus = state.status;
    const controller = new AbortController();
    this.#connectAbort = controller;
    const { model } = this.#parts.options;
    state.status = 'connecting';
    state.emit({ type: 'connection_status', status: 'connecting' });
    let opened: OpenedConnection<TContext> | undefined;
    try {
      opened = await this.open(controller.signal);
      if (controller.signal.aborted) throw controller.signal.reason;
      this.adopt(opened);
      this.#connectAbort = undefined;
      if (this.#replayOnConnect) {
        this.#reconnection.replayHistory();
        this.#replayOnConnect = false;
      }
      for (const warning of opened.warnings) state.emit({ type: 'warning', ...warning });
      state.emit({ type: 'connection_status', status: 'connected' });
      state.emit({ type: 'agent_started', agent: state.agent });
    } catch (error) {
      if (opened && state.connection !== opened.connection) await opened.connection.close().catch(() => {});
      // The tool sources a failed first connect started are not left running for a session that may never close.
      const released = previousStatus !== 'disconnected' && releaseToolSources(this.#parts.runContext);
      if (released) await released;
      this.#connectAbort = undefined;
      if (controller.signal.aborted || state.closing) throw new SessionClosedError();
      state.status = previousStatus === 'disconnected' ? 'disconnected' : 'idle';
      state.emit({ type: 'connection_status', status: 'disconnected', reason: 'connect_failed' });
      if (error instanceof RealtimeConnectError) throw error;
      const detail = errorText(error);
      throw new RealtimeConnectError(`Could not connect to "${model.provider}": ${detail}`, { cause: error });
    }
  }

  async #close(): Promise<void> {
    const state = this.#state;
    await Promise.all([this.#recycler.stop(), this.#reconnection.stop()]);
    this.#connectAbort?.abort(new SessionClosedError());
    await this.#connecting?.catch(() => {});
    const agentWasActive = state.status === 'connected' || state.status === 'reconnecting';
    state.status = 'closed';
    this.#parts.unacknowledged.dropCarried();
    await this.release(new SessionClosedError());
    await this.#parts.switcher.idle;
    const released = releaseToolSources(this.#parts.runContext);
    if (released) await released;
    if (agentWasActive) state.emit({ type: 'agent_done', agent: state.agent, reason: 'close' });
    state.emit({ type: 'connection_status', status: 'closed' });
    state.hub.end();
    const [failure] = this.#unclosed?.values() ?? [];
    if (this.#unclosed?.size) throw new ConnectionCloseError(failure);
  }

  /** A later `close()`: closes again each connection whose provider close failed; throws if one fails again. */
  async #closeUnclosed(): Promise<void> {
    let failure: unknown;
    for (const connection of [...(this.#unclosed?.keys() ?? [])]) {
      try {
        await connection.close();
        this.#unclosed?.delete(connection);
      } catch (error) {
        failure ??= error;
      }
    }
    if (this.#unclosed?.size) throw new ConnectionCloseError(failure);
  }

  #turn() {
    const { coordinator, history, mirror, responses, unacknowledged, turns } = this.#parts;
    return {
      state: this.#state,
      activity: this.#activity,
      coordinator,
      history,
      mirror,
      responses,
      unacknowledged,
      turns,
      replaysMessages: historyReplayStrategy(this.#parts.options.model.capabilities) === 'items',
    };
  }

  /** No turn is under way: no response, no request, no tool, no approval, the user is not speaking. */
  betweenTurns(): boolean {
    const { coordinator, tasks, approvals, requests, ephemeral } = this.#parts;
    return (
      this.#activity.quiet &&
      !coordinator.busy &&
      coordinator.pendingRequests.length === 0 &&
      tasks.size === 0 &&
      approvals.pending.length === 0 &&
      requests.waiting === 0 &&
      !this.#parts.unacknowledged.waiting &&
      ephemeral.inFlight === undefined
    );
  }
}
