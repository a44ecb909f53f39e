import type { Agent } from '../../agent.js';
import { createRunContext, type RunContext } from '../../context.js';
import type { ParleyError } from '../../errors.js';
import type { OutputGuardrail } from '../../guardrails.js';
import { watchToolSources } from '../../tool-source.js';
import { audioBytesPerMs } from '../audio.js';
import type { PlaybackTracker } from '../playback/playback-tracker.js';
import type { RealtimeConnection } from '../seam.js';
import { AgentSwitcher, type AgentSwitchPort } from './agents/agent-switch.js';
import {
  historyReplayStrategy,
  resumptionStrategy,
  sentContentStrategy,
  servicePlaybackStrategy,
  turnDetectionStrategy,
} from './capability-strategies.js';
import { ConnectionLifecycle, type ConnectionLifecyclePort } from './connection/connection-lifecycle.js';
import { ConnectionSteps, type ConnectionStepsPort } from './connection/connection-steps.js';
import { Reconnection } from './connection/reconnection.js';
import { Recycler } from './connection/recycle.js';
import type { RealtimeSessionEvent } from './events/events.js';
import { ProviderEventRouter } from './events/provider-events.js';
import { ResponseEvents } from './events/response-events.js';
import { traceSession } from './events/session-tracing.js';
import { TurnReports } from './events/turn-reports.js';
import { correctTrippedResponse } from './guardrails/guardrail-correction.js';
import {
  type GuardrailMonitorHost,
  type GuardrailTrip,
  OutputGuardrailMonitor,
} from './guardrails/output-guardrail-monitor.js';
import { RealtimeHistory } from './history/history.js';
import { HistoryMirror } from './history/history-mirror.js';
import type { TurnSources } from './history/lost-turn.js';
import { RealtimeMemoryWrites } from './history/memory-writes.js';
import { UnacknowledgedInputs } from './history/unacknowledged-inputs.js';
import type { ResolvedSessionOptions } from './options.js';
import { ContentDelivery } from './playback/content-delivery.js';
import {
  type InterruptionPort,
  Interruptions,
  type MessageOutcome,
  type MessageOutcomes,
} from './playback/interruption.js';
import { MessageOrder } from './playback/message-order.js';
import { SessionPlayback } from './playback/playback-control.js';
import type { EphemeralResponses } from './responses/ephemeral-responses.js';
import type { ResponseCoordinator } from './responses/response-coordinator.js';
import { ResponseGeneration } from './responses/response-generation.js';
import type { ResponseRequests } from './responses/response-requests.js';
import { ResponseTracker } from './responses/response-tracker.js';
import { StaleResponses } from './responses/stale-responses.js';
import { SessionState } from './session-state.js';
import { TaskSet } from './task-set.js';
import { ApprovalBook } from './tools/approvals.js';
import { CallDecisions } from './tools/call-decisions.js';
import { Delegations } from './tools/delegations.js';
import { HostedTools } from './tools/hosted-tools.js';
import { ToolExecutor, type ToolExecutorPort } from './tools/tool-executor.js';
import { UserInput } from './user-input.js';

/** The units of one session, wired together (the session's façade holds these). */
export interface SessionParts<TContext> {
  readonly options: ResolvedSessionOptions<TContext>;
  readonly runContext: RunContext<TContext>;
  readonly state: SessionState<TContext>;
  readonly history: RealtimeHistory;
  readonly approvals: ApprovalBook<TContext>;
  readonly decisions: CallDecisions<TContext>;
  readonly generation: ResponseGeneration<TContext>;
  readonly coordinator: ResponseCoordinator;
  readonly requests: ResponseRequests;
  readonly ephemeral: EphemeralResponses;
  readonly userInput: UserInput<TContext>;
  readonly interruptions: Interruptions<TContext>;
  readonly playback: SessionPlayback;
  readonly lifecycle: ConnectionLifecycle<TContext>;
  readonly switcher: AgentSwitcher<TContext>;
  readonly delegations: Delegations<TContext>;
  /** Writes the conversation to the `memory` option and seeds the session from it; absent without one. */
  readonly memory: RealtimeMemoryWrites | undefined;
  /** Held for the units' own tests (`#session-units`); the façade does not use them. */
  readonly router: ProviderEventRouter<TContext>;
  readonly responseEvents: ResponseEvents<TContext>;
  readonly content: ContentDelivery<TContext>;
  readonly executor: ToolExecutor<TContext>;
}

/** Builds the units of a session for `agent` with validated options, and connects them to each other. */
export function assembleSession<TContext>(
  agent: Agent<TContext>,
  resolved: ResolvedSessionOptions<TContext>,
): SessionParts<TContext> {
  return new SessionAssembly(agent, resolved);
}

/**
 * The one place a session's units are built and connected, in two phases: first the connection-bound core (the
 * state, the history and the ledgers the units share), then each unit against its port, in dependency order.
 * Every field is set once, here; the few ports that reach a unit built after them (the recycle planned on
 * adoption, the router a connection is subscribed to, the lifecycle a lost connection ends) read it when they
 * are called, never at construction.
 */
class SessionAssembly<TContext>
  implements
    SessionParts<TContext>,
    InterruptionPort<TContext>,
    AgentSwitchPort<TContext>,
    ToolExecutorPort<TContext>,
    ConnectionStepsPort<TContext>,
    ConnectionLifecyclePort<TContext>,
    GuardrailMonitorHost<TContext>,
    MessageOutcomes
{
  // ── the connection-bound core ───────────────────────────────────────────────────────────────
  readonly options: ResolvedSessionOptions<TContext>;
  readonly runContext: RunContext<TContext>;
  readonly state: SessionState<TContext>;
  readonly tasks: TaskSet;
  readonly history: RealtimeHistory;
  readonly approvals: ApprovalBook<TContext>;
  readonly unacknowledged: UnacknowledgedInputs;
  readonly responses: ResponseTracker<TContext>;
  readonly messageOrder: MessageOrder;
  readonly tracker: PlaybackTracker;
  // ── the units ───────────────────────────────────────────────────────────────────────────────
  readonly stale: StaleResponses;
  readonly generation: ResponseGeneration<TContext>;
  readonly coordinator: ResponseCoordinator;
  readonly requests: ResponseRequests;
  readonly ephemeral: EphemeralResponses;
  readonly turns: TurnReports<TContext>;
  readonly mirror: HistoryMirror<TContext>;
  readonly interruptions: Interruptions<TContext>;
  readonly playback: SessionPlayback;
  readonly switcher: AgentSwitcher<TContext>;
  readonly executor: ToolExecutor<TContext>;
  readonly hostedTools: HostedTools<TContext>;
  readonly guardrails: OutputGuardrailMonitor<TContext>;
  readonly delegations: Delegations<TContext>;
  readonly steps: ConnectionSteps<TContext>;
  readonly reconnection: Reconnection<TContext>;
  readonly recycler: Recycler<TContext>;
  /** What a lost turn is read from, besides the state and the turn activity. */
  readonly turn: Omit<TurnSources<TContext>, 'state' | 'activity'>;
  readonly lifecycle: ConnectionLifecycle<TContext>;
  readonly content: ContentDelivery<TContext>;
  readonly responseEvents: ResponseEvents<TContext>;
  readonly router: ProviderEventRouter<TContext>;
  readonly decisions: CallDecisions<TContext>;
  readonly userInput: UserInput<TContext>;
  readonly memory: RealtimeMemoryWrites | undefined;

  constructor(agent: Agent<TContext>, options: ResolvedSessionOptions<TContext>) {
    const { model, clock, reconnect } = options;
    const { capabilities, provider } = model;
    this.options = options;
    this.runContext = createRunContext(options.context);
    this.state = new SessionState(
      agent,
      provider,
      options.rawEvents,
      resumptionStrategy(capabilities),
      (connection, detail) => this.lifecycle.connectionLost(connection, detail),
    );
    traceSession(this.state.hub, provider, this.runContext);
    this.tasks = new TaskSet(clock);
    const emit = (event: RealtimeSessionEvent<TContext>) => this.state.emit(event);
    this.history = new RealtimeHistory(emit);
    this.approvals = new ApprovalBook<TContext>();
    // Without acknowledgements a sent message enters the history as it is sent.
    this.unacknowledged =
      sentContentStrategy(capabilities) === 'session'
        ? new UnacknowledgedInputs((item) => this.mirror.itemAdded({ type: 'item_added', item }))
        : new UnacknowledgedInputs();
    this.responses = new ResponseTracker(() => this.state.agent);
    this.messageOrder = new MessageOrder(audioBytesPerMs(options.config.outputAudioFormat));
    this.tracker = options.playbackTracker;

    const { state, history, responses, messageOrder, tracker, runContext, tasks } = this;
    // One object serves every unit that takes the session's identity as its settings.
    const identity = { runContext, capabilities, provider };
    const isStopped = (responseId: string) => this.interruptions.isStopped(responseId);
    this.stale = new StaleResponses(clock, options.staleResponseMs, (id, blocked) =>
      this.responseEvents.dropStale(id, blocked),
    );
    this.generation = new ResponseGeneration(state, options, this.stale);
    this.coordinator = this.generation.coordinator;
    this.requests = this.generation.requests;
    this.ephemeral = this.generation.ephemeral;
    const { coordinator, ephemeral } = this;
    this.turns = new TurnReports<TContext>({
      clock,
      history,
      messageOrder,
      tracker,
      isStopped,
      emit,
    });
    this.mirror = new HistoryMirror(
      history,
      responses,
      isStopped,
      () => ephemeral.inFlight !== undefined || responses.outOfBandStreaming(),
      (itemId) => this.turns.removing(itemId),
    );
    this.interruptions = new Interruptions<TContext>(identity, this);
    this.playback = new SessionPlayback(
      tracker,
      () => {
        if (state.status === 'connected' && !state.closing) this.interruptions.interrupt('playback');
      },
      () => this.turns.playbackReported(),
    );
    this.switcher = new AgentSwitcher<TContext>(identity, this);
    watchToolSources(runContext, () => void this.switcher.refreshTools());
    this.executor = new ToolExecutor<TContext>(
      {
        runContext,
        clock,
        toolTimeoutMs: options.toolTimeoutMs,
        toolErrorFormatter: options.toolErrorFormatter,
        sequential: !options.asyncToolCalls,
      },
      this,
    );
    this.hostedTools = new HostedTools<TContext>(runContext, this);
    this.guardrails = new OutputGuardrailMonitor<TContext>(this);
    this.delegations = new Delegations<TContext>({
      delegate: options.delegate,
      delivery: options.delegateDelivery === 'thought' ? 'thought' : 'commentary',
      runContext,
      tasks,
      history: () => history.items,
      send: (command) => state.send(command),
      emit,
      reportError: (error) => state.reportError('session', error, 'delegation_failed'),
    });

    this.steps = new ConnectionSteps<TContext>(
      { model, config: options.config, rawEvents: options.rawEvents, clock, runContext },
      this,
    );
    this.reconnection = new Reconnection(
      state,
      clock,
      reconnect,
      history,
      this.steps.echoes,
      this.steps,
      historyReplayStrategy(capabilities),
      this.unacknowledged,
      sentContentStrategy(capabilities) === 'provider',
    );
    this.recycler = new Recycler(state, clock, reconnect, this.reconnection, this.steps);
    this.turn = {
      coordinator,
      history,
      mirror: this.mirror,
      responses,
      unacknowledged: this.unacknowledged,
      turns: this.turns,
      replaysMessages: historyReplayStrategy(capabilities) === 'items',
    };
    this.lifecycle = new ConnectionLifecycle<TContext>(identity, this);
    this.content = new ContentDelivery<TContext>({
      stale: this.stale,
      interruptions: this.interruptions,
      messageOrder,
      tracker,
      mirror: this.mirror,
      guardrails: this.guardrails,
      responses,
      hub: state.hub,
    });
    this.responseEvents = new ResponseEvents<TContext>(identity, {
      state,
      responses,
      generation: this.generation,
      content: this.content,
      interruptions: this.interruptions,
      guardrails: this.guardrails,
      mirror: this.mirror,
      turns: this.turns,
    });
    this.router = new ProviderEventRouter(state, {
      lifecycle: this.lifecycle,
      responses: this.responseEvents,
      content: this.content,
      mirror: this.mirror,
      interruptions: this.interruptions,
      executor: this.executor,
      delegations: this.delegations,
      hostedTools: this.hostedTools,
    });
    this.decisions = new CallDecisions(state, this.approvals, this.delegations);
    this.userInput = new UserInput(
      state,
      coordinator,
      options.config.turnDetection,
      capabilities,
      provider,
      this.unacknowledged,
    );
    this.memory = options.memory && connectMemory(options.memory, history, state, clock);
  }

  // ── the ports' members that are not units: each unit sees only its own port of this object ──────────

  /** {@link InterruptionPort}: an interrupted response's outcomes go to the turn reports and the history. */
  get outcomes(): MessageOutcomes {
    return this;
  }

  /** {@link GuardrailMonitorHost} */
  get debounceChars(): number {
    return this.options.guardrailDebounceChars;
  }

  /** {@link GuardrailMonitorHost}: the session's guardrails, then the agent's. */
  guardrailsFor(agent: Agent<TContext>): readonly OutputGuardrail<TContext>[] {
    return [...this.options.outputGuardrails, ...agent.outputGuardrails];
  }

  /** {@link GuardrailMonitorHost} */
  tripped(trip: GuardrailTrip<TContext>): void {
    correctTrippedResponse(this.state, this.interruptions, this.coordinator, trip);
  }

  /** {@link GuardrailMonitorHost} */
  failed(error: unknown): void {
    this.state.reportError('guardrail', error, 'guardrail_failed');
  }

  /** {@link AgentSwitchPort} */
  connecting(): Promise<void> | undefined {
    return this.lifecycle.pending;
  }

  /** {@link ConnectionLifecyclePort} */
  switchesIdle(): Promise<void> {
    return this.switcher.idle;
  }

  /** {@link ConnectionStepsPort} */
  listen(connection: RealtimeConnection): () => void {
    return this.router.listen(connection);
  }

  /** {@link ConnectionStepsPort}: the recycle of the adopted connection is planned. */
  adopted(connection: RealtimeConnection): void {
    this.recycler.plan(connection);
  }

  applyOutcome(
    responseId: string,
    itemId: string,
    outcome: MessageOutcome,
    heard?: { ms: number; ofMs: number },
  ): void {
    const mirror = this.mirror;
    this.turns.messageOutcome(responseId, itemId, outcome, () =>
      mirror.messageOutcome(itemId, outcome, heard),
    );
  }

  hasText(itemId: string): boolean {
    return this.mirror.hasText(itemId);
  }

  settled(responseId: string): void {
    this.turns.settled(responseId);
  }

  /** {@link InterruptionPort}: the provider's confirmed turn detection decides, not only what the app asked for. */
  providerCancelsOnSpeech(): boolean {
    const { state, options } = this;
    const confirmed = state.connection?.confirmedConfig;
    const setting =
      confirmed && 'turnDetection' in confirmed ? confirmed.turnDetection : options.config.turnDetection;
    return turnDetectionStrategy.providerCancelsOnSpeech(setting, options.model.capabilities);
  }

  /** {@link InterruptionPort}: the live connection may say it differently from the model (a sideband, WebRTC). */
  servicePlayback(): boolean {
    return servicePlaybackStrategy(this.options.model.capabilities, this.state.connection);
  }

  // ── what a released connection takes with it ────────────────────────────────────────────────

  /** {@link ConnectionStepsPort}: the units bound to the released connection forget it at once, in this order. */
  forget(reason: ParleyError): void {
    const { requests, coordinator, ephemeral } = this;
    this.recycler.cancelTimer();
    requests.stopTimeouts();
    this.stale.reset();
    coordinator.reset();
    ephemeral.reset();
    // Before what was heard is forgotten: turns still playing end with it.
    this.turns.flush();
    this.mirror.transcriptionsCut();
    this.interruptions.reset();
    this.messageOrder.reset();
    this.tracker.reset();
    requests.failAll(reason);
    this.approvals.clear();
  }

  /** {@link ConnectionStepsPort}: after the released connection's tasks ended, what they could still have touched. */
  forgetTasks(): void {
    this.executor.reset();
    this.guardrails.reset();
    this.responses.clear();
  }

  /** {@link ConnectionStepsPort}: a response, a request, a tool or an approval is under way. */
  busy(): boolean {
    const { coordinator, requests, ephemeral } = this;
    return (
      coordinator.busy ||
      coordinator.pendingRequests.length > 0 ||
      this.tasks.size > 0 ||
      this.approvals.pending.length > 0 ||
      requests.waiting > 0 ||
      ephemeral.inFlight !== undefined
    );
  }
}

/** The memory writer, fed by the session's own history and turn events. */
function connectMemory<TContext>(
  session: NonNullable<ResolvedSessionOptions<TContext>['memory']>,
  history: RealtimeHistory,
  state: SessionState<TContext>,
  clock: ResolvedSessionOptions<TContext>['clock'],
): RealtimeMemoryWrites {
  const memory = new RealtimeMemoryWrites(session, history, clock, (code, message) =>
    state.emit({ type: 'warning', code, message }),
  );
  const changed = () => memory.changed();
  state.hub.on('history_added', changed);
  state.hub.on('history_updated', changed);
  state.hub.on('history_removed', changed);
  state.hub.on('turn_done', (event) => memory.turnDone((event as { responseId: string }).responseId));
  return memory;
}
