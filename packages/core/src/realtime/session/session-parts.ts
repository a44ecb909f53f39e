import type { Agent } from '../../agent.js';
import { createRunContext, type RunContext } from '../../context.js';
import { audioBytesPerMs } from '../audio.js';
import type { RealtimeConnection, RealtimeEvent } from '../seam.js';
import { AgentSwitcher } from './agent-switch.js';
import { ApprovalBook } from './approvals.js';
import { CallDecisions } from './call-decisions.js';
import { turnDetectionStrategy } from './capability-strategies.js';
import { ConnectionLifecycle } from './connection-lifecycle.js';
import { Delegations } from './delegations.js';
import { SessionClosedError } from './errors.js';
import type { RealtimeSessionEvent } from './events.js';
import { correctTrippedResponse } from './guardrail-correction.js';
import { RealtimeHistory } from './history.js';
import { HistoryMirror } from './history-mirror.js';
import { Interruptions } from './interruption.js';
import { MessageOrder } from './message-order.js';
import type { ResolvedSessionOptions } from './options.js';
import { OutputGuardrailMonitor } from './output-guardrail-monitor.js';
import { SessionPlayback } from './playback-control.js';
import { ProviderEventRouter } from './provider-events.js';
import { ResponseGeneration } from './response-generation.js';
import { ResponseTracker } from './response-tracker.js';
import { SessionState } from './session-state.js';
import { traceSession } from './session-tracing.js';
import { StaleResponses } from './stale-responses.js';
import { TaskSet } from './task-set.js';
import { ToolExecutor } from './tool-executor.js';
import { TurnReports } from './turn-reports.js';
import { UnacknowledgedInputs } from './unacknowledged-inputs.js';
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
  readonly userInput: UserInput<TContext>;
  readonly interruptions: Interruptions<TContext>;
  readonly playback: SessionPlayback;
  readonly lifecycle: ConnectionLifecycle<TContext>;
  readonly switcher: AgentSwitcher<TContext>;
  readonly delegations: Delegations<TContext>;
  /** Held for the units' own tests (`#session-units`); the façade does not use them. */
  readonly router: ProviderEventRouter<TContext>;
  readonly executor: ToolExecutor<TContext>;
}

/** Builds the units of a session for `agent` with validated options, and connects them to each other. */
export function assembleSession<TContext>(
  agent: Agent<TContext>,
  resolved: ResolvedSessionOptions<TContext>,
): SessionParts<TContext> {
  const { model, clock, playbackTracker: tracker } = resolved;
  const state = new SessionState(agent, model.provider, resolved.rawEvents);
  traceSession(state.hub, model.provider);
  const runContext = createRunContext(resolved.context);
  const tasks = new TaskSet(clock);
  const unacknowledged = new UnacknowledgedInputs();
  const messageOrder = new MessageOrder(audioBytesPerMs(resolved.config.outputAudioFormat));
  const emit = (event: RealtimeSessionEvent<TContext>) => state.emit(event);
  const send: SessionState<TContext>['send'] = (command) => state.send(command);
  const isStopped = (responseId: string) => interruptions.isStopped(responseId);
  const history = new RealtimeHistory(emit);
  const approvals = new ApprovalBook<TContext>();
  const responses = new ResponseTracker(() => state.agent);
  const stale = new StaleResponses(clock, resolved.staleResponseMs, (id) => router.dropStale(id));
  const generation = new ResponseGeneration(state, resolved);
  const { coordinator } = generation;
  const interruptions: Interruptions<TContext> = new Interruptions<TContext>({
    capabilities: model.capabilities,
    provider: model.provider,
    responses,
    messageOrder,
    tracker,
    coordinator,
    ephemeral: generation.ephemeral,
    // The provider's confirmed turn detection decides, not only what the app asked for.
    providerCancelsOnSpeech: () => {
      const confirmed = state.connection?.confirmedConfig;
      const setting =
        confirmed && 'turnDetection' in confirmed ? confirmed.turnDetection : resolved.config.turnDetection;
      return turnDetectionStrategy.providerCancelsOnSpeech(setting, model.capabilities);
    },
    send,
    emit,
    applyOutcome: (responseId, itemId, outcome, heard) =>
      turns.messageOutcome(responseId, itemId, outcome, () => mirror.messageOutcome(itemId, outcome, heard)),
    hasText: (itemId) => mirror.hasText(itemId),
    settled: (responseId) => turns.settled(responseId),
  });
  const turns = new TurnReports<TContext>({
    clock,
    history,
    messageOrder,
    tracker,
    isStopped,
    emit,
  });
  const mirror = new HistoryMirror(
    history,
    responses,
    isStopped,
    () => generation.ephemeral.inFlight !== undefined || responses.outOfBandStreaming(),
  );
  const playback = new SessionPlayback(
    tracker,
    () => {
      if (state.status === 'connected' && !state.closing) interruptions.interrupt('playback');
    },
    () => turns.playbackReported(),
  );
  const switcher: AgentSwitcher<TContext> = new AgentSwitcher<TContext>({
    runContext,
    capabilities: model.capabilities,
    provider: model.provider,
    requireLive: (action) => state.connectionFor(action),
    requireOpen: () => {
      if (state.closing || state.status === 'closed') throw new SessionClosedError();
    },
    connected: () => state.status === 'connected',
    connecting: () => lifecycle.pending,
    replace: (next) => {
      state.agent = next;
    },
    lifetime: () => state.lifetime.signal,
    agent: () => state.agent,
    agentConfig: () => state.agentConfig,
    commit: (next, config) => {
      state.agent = next;
      state.agentConfig = config;
    },
    send,
    emit,
    reportError: (error) => state.reportError('session', error, 'agent_switch_failed'),
  });
  const executor = new ToolExecutor<TContext>(
    {
      runContext,
      clock,
      toolTimeoutMs: resolved.toolTimeoutMs,
      tasks,
      approvals: approvals,
      responses,
      mirror,
      coordinator,
      currentAgent: () => state.agent,
      live: () => state.live,
      send,
      unacknowledged,
      emit,
      handoff: (handoff, call) =>
        switcher.switch(handoff.agent as Agent<TContext>, 'tool_call', call.callId, handoff.onHandoff),
      reportError: (source, error) => state.reportError(source, error),
    },
    { sequential: !resolved.asyncToolCalls },
  );
  const guardrails = new OutputGuardrailMonitor<TContext>({
    runContext,
    tasks,
    debounceChars: resolved.guardrailDebounceChars,
    guardrailsFor: (a) => [...resolved.outputGuardrails, ...a.outputGuardrails],
    tripped: (trip) => correctTrippedResponse(state, interruptions, coordinator, trip),
    failed: (error) => state.reportError('guardrail', error, 'guardrail_failed'),
  });
  const delegations = new Delegations<TContext>({
    delegate: resolved.delegate,
    delivery: resolved.delegateDelivery === 'thought' ? 'thought' : 'commentary',
    runContext,
    tasks,
    history: () => history.items,
    send,
    emit,
    reportError: (error) => state.reportError('session', error, 'delegation_failed'),
  });
  const observed = (type: RealtimeSessionEvent<TContext>['type']) => state.hub.observed(type);
  // One object serves the lifecycle and the router (no spread copies: each would be another object with
  // its own hidden class per session); `lifecycle` is set once both exist.
  const wiring = {
    options: resolved,
    runContext,
    history,
    unacknowledged,
    tasks,
    approvals,
    switcher,
    delegations,
    emit,
    observed,
    messageOrder,
    mirror,
    coordinator,
    responses,
    stale,
    requests: generation.requests,
    ephemeral: generation.ephemeral,
    interruptions,
    guardrails,
    executor,
    turns,
    delivery: {
      messageOrder,
      tracker,
      mirror,
      guardrails,
      responses,
      isStopped,
      observed,
      emit,
    },
    route: (connection: RealtimeConnection, event: RealtimeEvent) => router.route(connection, event),
    lifecycle: undefined as ConnectionLifecycle<TContext> | undefined,
  };
  const lifecycle: ConnectionLifecycle<TContext> = new ConnectionLifecycle(state, wiring);
  const router = new ProviderEventRouter(state, Object.assign(wiring, { lifecycle }));
  return {
    options: resolved,
    runContext,
    state,
    history,
    approvals,
    decisions: new CallDecisions(state, approvals, delegations),
    generation,
    userInput: new UserInput(
      state,
      coordinator,
      resolved.config.turnDetection,
      model.capabilities,
      model.provider,
      unacknowledged,
    ),
    interruptions,
    playback,
    lifecycle,
    switcher,
    delegations,
    router,
    executor,
  };
}
