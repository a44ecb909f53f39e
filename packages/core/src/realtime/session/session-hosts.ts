import type { Agent } from '../../agent.js';
import type { Clock } from '../../clock.js';
import type { RunContext } from '../../context.js';
import type { OutputGuardrail } from '../../guardrails.js';
import type { Handoff } from '../../handoff.js';
import type { ToolErrorFormatter } from '../../runner/run-config.js';
import type { PlaybackTracker } from '../playback/playback-tracker.js';
import type { RealtimeCapabilities, RealtimeCommand } from '../seam.js';
import type { AgentSessionConfig } from './agent-config.js';
import type { AgentSwitcher, AgentSwitchHost } from './agent-switch.js';
import type { ApprovalBook } from './approvals.js';
import { servicePlaybackStrategy, turnDetectionStrategy } from './capability-strategies.js';
import type { ConnectionLifecycle } from './connection-lifecycle.js';
import type { DelegationsHost } from './delegations.js';
import type { EphemeralResponses } from './ephemeral-responses.js';
import { SessionClosedError } from './errors.js';
import type { RealtimeErrorSource, RealtimeSessionEvent } from './events.js';
import { correctTrippedResponse } from './guardrail-correction.js';
import type { RealtimeHistory } from './history.js';
import type { RealtimeHistoryItem } from './history-item.js';
import type { HistoryMirror } from './history-mirror.js';
import type { InterruptionHost, Interruptions, MessageOutcome } from './interruption.js';
import type { MessageOrder } from './message-order.js';
import type { ResolvedSessionOptions } from './options.js';
import type { GuardrailMonitorHost, GuardrailTrip } from './output-guardrail-monitor.js';
import type { ResponseCoordinator } from './response-coordinator.js';
import type { ResponseGeneration } from './response-generation.js';
import type { ResponseTracker } from './response-tracker.js';
import type { SessionState } from './session-state.js';
import type { TaskSet } from './task-set.js';
import type { ToolCall, ToolExecutorHost } from './tool-executor.js';
import type { TurnReports } from './turn-reports.js';
import type { UnacknowledgedInputs } from './unacknowledged-inputs.js';

/**
 * The units of one session that the others reach at call time. The hosts below hold this one record and read
 * through it, so a session pays for one object per host instead of one closure per callback (an idle session
 * holds dozens of them otherwise). Units built after a host that needs them are set here once they exist.
 */
export class SessionLinks<TContext> {
  interruptions!: Interruptions<TContext>;
  turns!: TurnReports<TContext>;
  mirror!: HistoryMirror<TContext>;
  lifecycle!: ConnectionLifecycle<TContext>;
  switcher!: AgentSwitcher<TContext>;

  constructor(
    readonly state: SessionState<TContext>,
    readonly options: ResolvedSessionOptions<TContext>,
    readonly runContext: RunContext<TContext>,
    readonly history: RealtimeHistory,
    readonly tasks: TaskSet,
    readonly approvals: ApprovalBook<TContext>,
    readonly unacknowledged: UnacknowledgedInputs,
    readonly responses: ResponseTracker<TContext>,
    readonly messageOrder: MessageOrder,
    readonly generation: ResponseGeneration<TContext>,
  ) {}
}

/** What the units share: the capabilities, the way out to the provider and to the app. */
abstract class LinkedHost<TContext> {
  constructor(protected readonly links: SessionLinks<TContext>) {}

  get runContext(): RunContext<TContext> {
    return this.links.runContext;
  }

  get capabilities(): RealtimeCapabilities {
    return this.links.options.model.capabilities;
  }

  get provider(): string {
    return this.links.options.model.provider;
  }

  get tasks(): TaskSet {
    return this.links.tasks;
  }

  send(command: RealtimeCommand): void {
    this.links.state.send(command);
  }

  emit(event: RealtimeSessionEvent<TContext>): void {
    this.links.state.emit(event);
  }
}

export class InterruptionLinks<TContext> extends LinkedHost<TContext> implements InterruptionHost<TContext> {
  get responses(): ResponseTracker<TContext> {
    return this.links.responses;
  }

  get messageOrder(): MessageOrder {
    return this.links.messageOrder;
  }

  get tracker(): PlaybackTracker {
    return this.links.options.playbackTracker;
  }

  get coordinator(): ResponseCoordinator {
    return this.links.generation.coordinator;
  }

  get ephemeral(): EphemeralResponses {
    return this.links.generation.ephemeral;
  }

  // The provider's confirmed turn detection decides, not only what the app asked for.
  providerCancelsOnSpeech(): boolean {
    const { state, options } = this.links;
    const confirmed = state.connection?.confirmedConfig;
    const setting =
      confirmed && 'turnDetection' in confirmed ? confirmed.turnDetection : options.config.turnDetection;
    return turnDetectionStrategy.providerCancelsOnSpeech(setting, options.model.capabilities);
  }

  servicePlayback(): boolean {
    const { state, options } = this.links;
    return servicePlaybackStrategy(options.model.capabilities, state.connection);
  }

  applyOutcome(
    responseId: string,
    itemId: string,
    outcome: MessageOutcome,
    heard?: { ms: number; ofMs: number },
  ): void {
    const { turns, mirror } = this.links;
    turns.messageOutcome(responseId, itemId, outcome, () => mirror.messageOutcome(itemId, outcome, heard));
  }

  hasText(itemId: string): boolean {
    return this.links.mirror.hasText(itemId);
  }

  settled(responseId: string): void {
    this.links.turns.settled(responseId);
  }
}

export class SwitchLinks<TContext> extends LinkedHost<TContext> implements AgentSwitchHost<TContext> {
  requireLive(action: string): void {
    this.links.state.connectionFor(action);
  }

  requireOpen(): void {
    const { state } = this.links;
    if (state.closing || state.status === 'closed') throw new SessionClosedError();
  }

  connected(): boolean {
    return this.links.state.status === 'connected';
  }

  live(): boolean {
    return this.links.state.live;
  }

  connecting(): Promise<void> | undefined {
    return this.links.lifecycle.pending;
  }

  lifetime(): AbortSignal {
    return this.links.state.lifetime.signal;
  }

  agent(): Agent<TContext> {
    return this.links.state.agent;
  }

  agentConfig(): AgentSessionConfig | undefined {
    return this.links.state.agentConfig;
  }

  replace(agent: Agent<TContext>): void {
    this.links.state.agent = agent;
  }

  commit(agent: Agent<TContext>, config: AgentSessionConfig): void {
    const { state } = this.links;
    state.agent = agent;
    state.agentConfig = config;
  }

  reportError(error: unknown): void {
    this.links.state.reportError('session', error, 'agent_switch_failed');
  }
}

export class ToolLinks<TContext> extends LinkedHost<TContext> implements ToolExecutorHost<TContext> {
  get clock(): Clock {
    return this.links.options.clock;
  }

  get toolTimeoutMs(): number | undefined {
    return this.links.options.toolTimeoutMs;
  }

  get toolErrorFormatter(): ToolErrorFormatter<TContext> | undefined {
    return this.links.options.toolErrorFormatter;
  }

  get approvals(): ApprovalBook<TContext> {
    return this.links.approvals;
  }

  get responses(): ResponseTracker<TContext> {
    return this.links.responses;
  }

  get mirror(): HistoryMirror<TContext> {
    return this.links.mirror;
  }

  get coordinator(): ResponseCoordinator {
    return this.links.generation.coordinator;
  }

  get unacknowledged(): UnacknowledgedInputs {
    return this.links.unacknowledged;
  }

  currentAgent(): Agent<TContext> {
    return this.links.state.agent;
  }

  live(): boolean {
    return this.links.state.live;
  }

  handoff(handoff: Handoff<TContext>, call: ToolCall<TContext>): Promise<void> {
    return this.links.switcher.switch(
      handoff.agent as Agent<TContext>,
      'tool_call',
      call.callId,
      handoff.onHandoff,
    );
  }

  reportError(source: RealtimeErrorSource, error: unknown): void {
    this.links.state.reportError(source, error);
  }
}

export class GuardrailLinks<TContext> extends LinkedHost<TContext> implements GuardrailMonitorHost<TContext> {
  get debounceChars(): number {
    return this.links.options.guardrailDebounceChars;
  }

  guardrailsFor(agent: Agent<TContext>): readonly OutputGuardrail<TContext>[] {
    return [...this.links.options.outputGuardrails, ...agent.outputGuardrails];
  }

  tripped(trip: GuardrailTrip<TContext>): void {
    const { state, interruptions, generation } = this.links;
    correctTrippedResponse(state, interruptions, generation.coordinator, trip);
  }

  failed(error: unknown): void {
    this.links.state.reportError('guardrail', error, 'guardrail_failed');
  }
}

export class DelegationLinks<TContext> extends LinkedHost<TContext> implements DelegationsHost<TContext> {
  get delegate(): Agent<TContext> | undefined {
    return this.links.options.delegate;
  }

  get delivery(): 'thought' | 'commentary' {
    return this.links.options.delegateDelivery === 'thought' ? 'thought' : 'commentary';
  }

  history(): readonly RealtimeHistoryItem[] {
    return this.links.history.items;
  }

  reportError(error: unknown): void {
    this.links.state.reportError('session', error, 'delegation_failed');
  }
}
