import { abortable } from '../../abortable.js';
import type { Agent } from '../../agent.js';
import type { RunContext } from '../../context.js';
import type { OnHandoff } from '../../handoff.js';
import type { RealtimeCapabilities, RealtimeCommand } from '../seam.js';
import { type AgentSessionConfig, agentSessionConfig } from './agent-config.js';
import { agentSwitchStrategy } from './capability-strategies.js';
import type { RealtimeSessionEvent } from './events.js';

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
 * agent's configuration is resolved, the handoff's `onHandoff` runs, then one `updateSession` goes out and
 * the switch is committed, followed by `agent_done`, `agent_started` and `handoff`. If any step fails nothing
 * is sent, the previous agent stays active and the error is reported (unless the connection went away).
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
    try {
      host.requireLive('switch agents');
      const signal = host.lifetime();
      const nextConfig = await abortable(agentSessionConfig(next, host.runContext, signal), signal);
      const update = agentSwitchStrategy(
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
      // Send and commit together: nothing can fail between the provider's update and the local one.
      host.send({ type: 'updateSession', config: update });
      host.commit(next, nextConfig);
    } catch (error) {
      if (!host.lifetime().aborted) host.reportError(error);
      throw error;
    }
    host.emit({ type: 'agent_done', agent: previous, reason: 'switch' });
    host.emit({ type: 'agent_started', agent: next });
    host.emit({
      type: 'handoff',
      from: previous,
      to: next,
      via,
      ...(callId !== undefined && { callId }),
    });
  }
}
