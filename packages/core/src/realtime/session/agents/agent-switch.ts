import { abortable } from '../../../abortable.js';
import type { Agent } from '../../../agent.js';
import type { RunContext } from '../../../context.js';
import type { OnHandoff } from '../../../handoff.js';
import type { RealtimeCapabilities, RealtimeSessionConfig } from '../../seam.js';
import { agentSwitchStrategy } from '../capability-strategies.js';
import { SessionClosedError } from '../errors.js';
import type { SessionState } from '../session-state.js';
import { type AgentSessionConfig, agentSessionConfig } from './agent-config.js';

/** How an agent switch was asked for. */
export type AgentSwitchVia = 'tool_call' | 'update_agent';

/** What {@link AgentSwitcher} takes from the session's options. */
export interface AgentSwitchSettings<TContext> {
  readonly runContext: RunContext<TContext>;
  readonly capabilities: RealtimeCapabilities;
  readonly provider: string;
}

/** What {@link AgentSwitcher} needs from its session. */
export interface AgentSwitchPort<TContext> {
  /** The active agent and its configuration, the status, the way out to the provider and the app. */
  readonly state: SessionState<TContext>;
  /** Settles when the connection (or reconnection) under way settles; `undefined` when none is. */
  connecting(): Promise<void> | undefined;
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
  readonly #settings: AgentSwitchSettings<TContext>;
  readonly #port: AgentSwitchPort<TContext>;
  #chain: Promise<void> = Promise.resolve();

  constructor(settings: AgentSwitchSettings<TContext>, port: AgentSwitchPort<TContext>) {
    this.#settings = settings;
    this.#port = port;
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
    const { state } = this.#port;
    requireOpen(state);
    if (state.status !== 'connected') await this.#port.connecting()?.catch(() => {});
    requireOpen(state);
    if (state.status !== 'connected') {
      state.agent = next;
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
      const { state } = this.#port;
      const { runContext, capabilities, provider } = this.#settings;
      if (state.status !== 'connected') return;
      const signal = state.lifetime.signal;
      const agent = state.agent;
      try {
        const nextConfig = await abortable(agentSessionConfig(agent, runContext, signal), signal);
        const current = state.agentConfig ?? nextConfig;
        if (JSON.stringify(current.tools) === JSON.stringify(nextConfig.tools)) return;
        const update = agentSwitchStrategy(current, nextConfig, capabilities, provider);
        state.send({ type: 'updateSession', config: update });
        commit(state, agent, nextConfig);
      } catch (error) {
        if (!signal.aborted) reportError(state, error);
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
    const { state } = this.#port;
    const { runContext, capabilities, provider } = this.#settings;
    const previous = state.agent;
    let nextConfig: AgentSessionConfig;
    let update: RealtimeSessionConfig;
    try {
      state.connectionFor('switch agents');
      const signal = state.lifetime.signal;
      nextConfig = await abortable(agentSessionConfig(next, runContext, signal), signal);
      update = agentSwitchStrategy(state.agentConfig ?? nextConfig, nextConfig, capabilities, provider);
      if (onHandoff)
        await abortable(
          Promise.resolve().then(() => onHandoff(runContext, { signal })),
          signal,
        );
    } catch (error) {
      if (!state.lifetime.signal.aborted) reportError(state, error);
      throw error;
    }
    const previousConfig = state.agentConfig;
    commit(state, next, nextConfig);
    this.#announce(previous, next);
    state.emit({
      type: 'handoff',
      from: previous,
      to: next,
      via,
      ...(callId !== undefined && { callId }),
    });
    // A listener may have closed the session (or the connection went away): the switch stops here.
    if (!state.live) return;
    try {
      state.send({ type: 'updateSession', config: update });
    } catch (error) {
      // The provider keeps the previous agent's settings: so does the session.
      if (previousConfig) commit(state, previous, previousConfig);
      else state.agent = previous;
      this.#announce(next, previous);
      if (!state.lifetime.signal.aborted) reportError(state, error);
      throw error;
    }
  }

  #announce(from: Agent<TContext>, to: Agent<TContext>): void {
    this.#port.state.emit({ type: 'agent_done', agent: from, reason: 'switch' });
    this.#port.state.emit({ type: 'agent_started', agent: to });
  }
}

/** Throws `SessionClosedError` once the session is closing or closed. */
function requireOpen<TContext>(state: SessionState<TContext>): void {
  if (state.closing || state.status === 'closed') throw new SessionClosedError();
}

/** Makes `agent` (configured as `config`) the active agent. */
function commit<TContext>(
  state: SessionState<TContext>,
  agent: Agent<TContext>,
  config: AgentSessionConfig,
): void {
  state.agent = agent;
  state.agentConfig = config;
}

function reportError<TContext>(state: SessionState<TContext>, error: unknown): void {
  state.reportError('session', error, 'agent_switch_failed');
}
