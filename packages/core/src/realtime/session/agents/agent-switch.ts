import { abortable } from '../../../abortable.js';
import type { Agent } from '../../../agent.js';
import type { RunContext } from '../../../context.js';
import type { OnHandoff } from '../../../handoff.js';
import type { RealtimeCapabilities, RealtimeCommand, RealtimeSessionConfig } from '../../seam.js';
import { agentSwitchStrategy } from '../capability-strategies.js';
import type { RealtimeSessionEvent } from '../events/events.js';
import { type AgentSessionConfig, agentSessionConfig } from './agent-config.js';

/** How an agent switch was asked for. */
export type AgentSwitchVia = 'tool_call' | 'update_agent';

/** What {@link AgentSwitcher} needs from its session. */
export interface AgentSwitchHost<TContext> {
  readonly runContext: RunContext<TContext>;
  readonly capabilities: RealtimeCapabilities;
  readonly provider: string;
  /** Throws the session's error unless it is connected. */
  requireLive(action: string): void;
  /** Throws `SessionClosedError` once the session is closing or closed. */
  requireOpen(): void;
  /** Connected and not closing: a command may go out. */
  live(): boolean;
  /** Connected: a switch goes to the provider. */
  connected(): boolean;
  /** Settles when the connection (or reconnection) under way settles; `undefined` when none is. */
  connecting(): Promise<void> | undefined;
  /** Aborted when the current connection is released. */
  lifetime(): AbortSignal;
  /** The active agent. */
  agent(): Agent<TContext>;
  /** What the provider was last configured with for the active agent. */
  agentConfig(): AgentSessionConfig | undefined;
  /** Makes `agent` the active agent while not connected (the next connection configures it). */
  replace(agent: Agent<TContext>): void;
  /** Makes `agent` (configured as `config`) the active agent. */
  commit(agent: Agent<TContext>, config: AgentSessionConfig): void;
  send(command: RealtimeCommand): void;
  emit(event: RealtimeSessionEvent<TContext>): void;
  reportError(error: unknown): void;
}

/**
 * The one agent-switch path, shared by handoffs and `updateAgent()`: switches run one at a time; the new
 * agent's configuration is resolved and the handoff's `onHandoff` runs; then the switch is committed and
 * announced (`agent_done`, `agent_started`, `handoff`), and one `updateSession` goes out. A listener of those
 * events that closes the session stops the switch there: nothing is sent. If a step before fails nothing is
 * sent, the previous agent stays active and the error is reported (unless the connection went away); if the
 * `updateSession` cannot be sent, the previous agent is active again (announced) and the error is reported.
 */
export class AgentSwitcher<TContext> {
  readonly #host: AgentSwitchHost<TContext>;
  #chain: Promise<void> = Promise.resolve();

  constructor(host: AgentSwitchHost<TContext>) {
    this.#host = host;
  }

  /** Settles once every switch asked for so far has settled. */
  get idle(): Promise<void> {
    return this.#chain;
  }

  /**
   * `updateAgent()`: waits for a connection under way; connected, switches to `next` like a handoff (the
   * previous agent stays active when that fails); not connected, only makes it the agent the next connection
   * starts with.
   */
  async update(next: Agent<TContext>): Promise<void> {
    const host = this.#host;
    host.requireOpen();
    if (!host.connected()) await host.connecting()?.catch(() => {});
    host.requireOpen();
    if (!host.connected()) {
      host.replace(next);
      return;
    }
    await this.switch(next, 'update_agent');
  }

  /**
   * The current agent's tools changed (a tool source announced a new list): sends the provider the agent's
   * configuration again, after the switches before it. Failures are reported as `error` events.
   */
  refreshTools(): Promise<void> {
    const run = this.#chain.then(async () => {
      const host = this.#host;
      if (!host.connected()) return;
      const signal = host.lifetime();
      const agent = host.agent();
      try {
        const nextConfig = await abortable(agentSessionConfig(agent, host.runContext, signal), signal);
        const current = host.agentConfig() ?? nextConfig;
        if (JSON.stringify(current.tools) === JSON.stringify(nextConfig.tools)) return;
        const update = agentSwitchStrategy(current, nextConfig, host.capabilities, host.provider);
        host.send({ type: 'updateSession', config: update });
        host.commit(agent, nextConfig);
      } catch (error) {
        if (!signal.aborted) host.reportError(error);
      }
    });
    this.#chain = run.catch(() => {});
    return run;
  }

  /** Switches to `next` after the switches before it; rejects when this one fails. */
  switch(
    next: Agent<TContext>,
    via: AgentSwitchVia,
    callId?: string,
    onHandoff?: OnHandoff<TContext>,
  ): Promise<void> {
    const run = this.#chain.then(() => this.#apply(next, via, callId, onHandoff));
    this.#chain = run.catch(() => {});
    return run;
  }

  async #apply(
    next: Agent<TContext>,
    via: AgentSwitchVia,
    callId: string | undefined,
    onHandoff: OnHandoff<TContext> | undefined,
  ): Promise<void> {
    const host = this.#host;
    const previous = host.agent();
    let nextConfig: AgentSessionConfig;
    let update: RealtimeSessionConfig;
    try {
      host.requireLive('switch agents');
      const signal = host.lifetime();
      nextConfig = await abortable(agentSessionConfig(next, host.runContext, signal), signal);
      update = agentSwitchStrategy(
        host.agentConfig() ?? nextConfig,
        nextConfig,
        host.capabilities,
        host.provider,
      );
      if (onHandoff)
        await abortable(
          Promise.resolve().then(() => onHandoff(host.runContext, { signal })),
          signal,
        );
    } catch (error) {
      if (!host.lifetime().aborted) host.reportError(error);
      throw error;
    }
    const previousConfig = host.agentConfig();
    host.commit(next, nextConfig);
    this.#announce(previous, next);
    host.emit({
      type: 'handoff',
      from: previous,
      to: next,
      via,
      ...(callId !== undefined && { callId }),
    });
    // A listener may have closed the session (or the connection went away): the switch stops here.
    if (!host.live()) return;
    try {
      host.send({ type: 'updateSession', config: update });
    } catch (error) {
      // The provider keeps the previous agent's settings: so does the session.
      if (previousConfig) host.commit(previous, previousConfig);
      else host.replace(previous);
      this.#announce(next, previous);
      if (!host.lifetime().aborted) host.reportError(error);
      throw error;
    }
  }

  #announce(from: Agent<TContext>, to: Agent<TContext>): void {
    this.#host.emit({ type: 'agent_done', agent: from, reason: 'switch' });
    this.#host.emit({ type: 'agent_started', agent: to });
  }
}
