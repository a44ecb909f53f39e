import type { Agent } from '../../agent.js';
import { createRunContext, type RunContext } from '../../context.js';
import { watchToolSources } from '../../tool-source.js';
import { audioBytesPerMs } from '../audio.js';
import type { RealtimeConnection, RealtimeEvent } from '../seam.js';
import { AgentSwitcher } from './agents/agent-switch.js';
import { resumptionStrategy, sentContentStrategy } from './capability-strategies.js';
import { ConnectionLifecycle } from './connection/connection-lifecycle.js';
import type { RealtimeSessionEvent } from './events/events.js';
import { ProviderEventRouter } from './events/provider-events.js';
import { traceSession } from './events/session-tracing.js';
import { TurnReports } from './events/turn-reports.js';
import { OutputGuardrailMonitor } from './guardrails/output-guardrail-monitor.js';
import { RealtimeHistory } from './history/history.js';
import { HistoryMirror } from './history/history-mirror.js';
import { RealtimeMemoryWrites } from './history/memory-writes.js';
import { UnacknowledgedInputs } from './history/unacknowledged-inputs.js';
import type { ResolvedSessionOptions } from './options.js';
import { Interruptions } from './playback/interruption.js';
import { MessageOrder } from './playback/message-order.js';
import { SessionPlayback } from './playback/playback-control.js';
import { ResponseGeneration } from './responses/response-generation.js';
import { ResponseTracker } from './responses/response-tracker.js';
import { StaleResponses } from './responses/stale-responses.js';
import {
  DelegationLinks,
  GuardrailLinks,
  InterruptionLinks,
  SessionLinks,
  SwitchLinks,
  ToolLinks,
} from './session-hosts.js';
import { SessionState } from './session-state.js';
import { TaskSet } from './task-set.js';
import { ApprovalBook } from './tools/approvals.js';
import { CallDecisions } from './tools/call-decisions.js';
import { Delegations } from './tools/delegations.js';
import { ToolExecutor } from './tools/tool-executor.js';
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
  /** Writes the conversation to the `memory` option and seeds the session from it; absent without one. */
  readonly memory: RealtimeMemoryWrites | undefined;
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
  const state = new SessionState(
    agent,
    model.provider,
    resolved.rawEvents,
    resumptionStrategy(model.capabilities),
  );
  const runContext = createRunContext(resolved.context);
  traceSession(state.hub, model.provider, runContext);
  const tasks = new TaskSet(clock);
  // Without acknowledgements a sent message enters the history as it is sent (the mirror exists by then).
  const unacknowledged =
    sentContentStrategy(model.capabilities) === 'session'
      ? new UnacknowledgedInputs((item) => mirror.itemAdded({ type: 'item_added', item }))
      : new UnacknowledgedInputs();
  const messageOrder = new MessageOrder(audioBytesPerMs(resolved.config.outputAudioFormat));
  const emit = (event: RealtimeSessionEvent<TContext>) => state.emit(event);
  const isStopped = (responseId: string) => interruptions.isStopped(responseId);
  const history = new RealtimeHistory(emit);
  const approvals = new ApprovalBook<TContext>();
  const responses = new ResponseTracker(() => state.agent);
  const stale = new StaleResponses(clock, resolved.staleResponseMs, (id, blocked) =>
    router.dropStale(id, blocked),
  );
  const generation = new ResponseGeneration(state, resolved, stale);
  const { coordinator } = generation;
  const links = new SessionLinks(
    state,
    resolved,
    runContext,
    history,
    tasks,
    approvals,
    unacknowledged,
    responses,
    messageOrder,
    generation,
  );
  const interruptions = new Interruptions<TContext>(new InterruptionLinks(links));
  links.interruptions = interruptions;
  const turns = new TurnReports<TContext>({
    clock,
    history,
    messageOrder,
    tracker,
    isStopped,
    emit,
  });
  links.turns = turns;
  const mirror = new HistoryMirror(
    history,
    responses,
    isStopped,
    () => generation.ephemeral.inFlight !== undefined || responses.outOfBandStreaming(),
  );
  links.mirror = mirror;
  const playback = new SessionPlayback(
    tracker,
    () => {
      if (state.status === 'connected' && !state.closing) interruptions.interrupt('playback');
    },
    () => turns.playbackReported(),
  );
  const switcher = new AgentSwitcher<TContext>(new SwitchLinks(links));
  links.switcher = switcher;
  watchToolSources(runContext, () => void switcher.refreshTools());
  const executor = new ToolExecutor<TContext>(new ToolLinks(links), { sequential: !resolved.asyncToolCalls });
  const guardrails = new OutputGuardrailMonitor<TContext>(new GuardrailLinks(links));
  const delegations = new Delegations<TContext>(new DelegationLinks(links));
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
      interruptions,
      hub: state.hub,
    },
    route: (connection: RealtimeConnection, event: RealtimeEvent) => router.route(connection, event),
    lifecycle: undefined as ConnectionLifecycle<TContext> | undefined,
  };
  const lifecycle: ConnectionLifecycle<TContext> = new ConnectionLifecycle(state, wiring);
  links.lifecycle = lifecycle;
  const router = new ProviderEventRouter(state, Object.assign(wiring, { lifecycle }));
  const memory = resolved.memory && connectMemory(resolved.memory, history, state, clock);
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
    memory,
  };
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
