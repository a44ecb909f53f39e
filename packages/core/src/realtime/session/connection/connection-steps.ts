import { abortable } from '../../../abortable.js';
import type { Agent } from '../../../agent.js';
import type { RunContext } from '../../../context.js';
import type { ParleyError } from '../../../errors.js';
import type { RealtimeConnection, RealtimeEvent, RealtimeModel, RealtimeSessionConfig } from '../../seam.js';
import {
  type AgentSessionConfig,
  agentSessionConfig,
  type ConfigWarning,
  initialSessionConfig,
} from '../agents/agent-config.js';
import { toolFollowUpStrategy } from '../capability-strategies.js';
import { ConnectionCloseError, RealtimeConnectError } from '../errors.js';
import { TurnActivity } from '../events/turn-activity.js';
import { ReplayEchoes } from '../history/history-replay.js';
import type { UnacknowledgedInputs } from '../history/unacknowledged-inputs.js';
import type { ResolvedSessionOptions } from '../options.js';
import { bridgeAudioFormats } from '../playback/audio-format-bridge.js';
import type { SessionState } from '../session-state.js';
import type { TaskSet } from '../task-set.js';

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

/** What the connection steps take from the session's options. */
export type ConnectionSettings<TContext> = Pick<
  ResolvedSessionOptions<TContext>,
  'model' | 'config' | 'rawEvents' | 'clock'
> & { readonly runContext: RunContext<TContext> };

/** What {@link ConnectionSteps} needs from its session. */
export interface ConnectionStepsPort<TContext> {
  readonly state: SessionState<TContext>;
  /** The tasks bound to the live connection: cancelled and awaited when it is released. */
  readonly tasks: TaskSet;
  readonly unacknowledged: UnacknowledgedInputs;
  /** Subscribes the session's router to `connection`'s events; returns the function that unsubscribes it. */
  listen(connection: RealtimeConnection): () => void;
  /** `connection` became the live one (its recycle is planned). */
  adopted(connection: RealtimeConnection): void;
  /** Forgets at once what the units bound to the released connection hold (before its tasks end). */
  forget(reason: ParleyError): void;
  /** The released connection's tasks ended: forgets what they could still have touched. */
  forgetTasks(): void;
  /** A turn is under way beyond what the provider's events say: a response, a request, a tool or an approval. */
  busy(): boolean;
}

/**
 * The steps of one connection's life that connect, reconnection and recycle share: opening a connection for the
 * current agent, adopting it as the live one, watching its events for the turn activity and replay echoes,
 * and releasing it with everything bound to it.
 */
export class ConnectionSteps<TContext> {
  readonly #settings: ConnectionSettings<TContext>;
  readonly #port: ConnectionStepsPort<TContext>;
  /** What the provider's events say about the current turn. */
  readonly activity: TurnActivity;
  /** Echoes of the replayed history the provider will send back (dropped). */
  readonly echoes = new ReplayEchoes();
  #unsubscribe: (() => void) | undefined;
  #releasing: Promise<void> = Promise.resolve();
  /** Connections whose provider close failed: `close()` retries them. Created on first use. */
  #unclosed: Map<RealtimeConnection, unknown> | undefined;

  constructor(settings: ConnectionSettings<TContext>, port: ConnectionStepsPort<TContext>) {
    this.#settings = settings;
    this.#port = port;
    const { clock, model } = settings;
    this.activity = new TurnActivity(clock, toolFollowUpStrategy(model.capabilities) === 'provider');
  }

  /** Settles when the last release has (a connect waits for it). */
  get releasing(): Promise<void> {
    return this.#releasing;
  }

  /**
   * Opens a connection configured for the current agent; the live connection (if any) is left alone. `resume`: with
   * the session's resume token, where it has one (reconnects and recycles).
   */
  async open(signal: AbortSignal, resume = false): Promise<OpenedConnection<TContext>> {
    const { model, config: settings, rawEvents, runContext } = this.#settings;
    const state = this.#port.state;
    const agent = state.agent;
    const agentConfig = await abortable(agentSessionConfig(agent, runContext, signal), signal);
    const { config, warnings } = initialSessionConfig(
      agentConfig,
      settings,
      model.capabilities,
      model.provider,
    );
    const resumeToken = resume ? state.resumption.token : undefined;
    const connection = await connectModel(model, config, signal, rawEvents, resumeToken);
    const resumed = resumeToken !== undefined && connection.resumed === true;
    return { connection: bridgeAudioFormats(connection, config), agent, agentConfig, warnings, resumed };
  }

  /** Makes `opened` the live connection; throws `RealtimeConnectError` (unsubscribed again) if it already closed. */
  adopt(opened: OpenedConnection<TContext>): void {
    const { state } = this.#port;
    const live = opened.connection;
    const unsubscribe = this.#port.listen(live);
    if (live.status !== 'open') {
      unsubscribe();
      throw new RealtimeConnectError(
        `The connection to "${this.#settings.model.provider}" closed while the session was starting. Call connect() again.`,
      );
    }
    state.connection = live;
    state.resumption.adopted(opened.resumed);
    this.#unsubscribe = unsubscribe;
    state.agentConfig = opened.agentConfig;
    state.lifetime = new AbortController();
    state.status = 'connected';
    this.#port.adopted(live);
  }

  /** Sees every event of the live connection before the router; `true` means "drop it" (an echo of the replay). */
  observe(event: RealtimeEvent): boolean {
    if (event.type === 'item_added') {
      this.#port.unacknowledged.acknowledged(event.item);
      if (this.echoes.consume(event.item)) return true;
    }
    this.activity.observe(event);
    return false;
  }

  /** No turn is under way: no response, no request, no tool, no approval, the user is not speaking. */
  betweenTurns(): boolean {
    return this.activity.quiet && !this.#port.busy() && !this.#port.unacknowledged.waiting;
  }

  /**
   * Releases the current connection and everything bound to it, once: listener, waiting responses,
   * approvals, tool and guardrail tasks (cancelled and awaited), then the connection itself.
   */
  release(reason: ParleyError): Promise<void> {
    const port = this.#port;
    const { state, tasks } = port;
    const connection = state.connection;
    const unsubscribe = this.#unsubscribe;
    state.connection = undefined;
    this.#unsubscribe = undefined;
    state.lifetime.abort(reason);
    unsubscribe?.();
    this.activity.reset();
    this.echoes.clear();
    port.forget(reason);
    port.unacknowledged.clear();
    const previous = this.#releasing;
    this.#releasing = (async () => {
      await previous;
      const abandoned = await tasks.cancelAll(reason);
      if (abandoned > 0) {
        state.emit({
          type: 'warning',
          code: 'tasks_abandoned',
          message: `${abandoned} cancelled task(s) (a tool, a guardrail or a delegation) ignored their abort signal for ${tasks.graceMs} ms; the session went on without them and ignores what they do now.`,
        });
      }
      port.forgetTasks();
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

  /** Throws `ConnectionCloseError` when a released connection's provider close failed. */
  throwUnclosed(): void {
    const [failure] = this.#unclosed?.values() ?? [];
    if (this.#unclosed?.size) throw new ConnectionCloseError(failure);
  }

  /** A later `close()`: closes again each connection whose provider close failed; throws if one fails again. */
  async closeUnclosed(): Promise<void> {
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
}

async function connectModel(
  model: RealtimeModel,
  config: RealtimeSessionConfig,
  signal: AbortSignal,
  rawEvents: boolean,
  resumeToken: string | undefined,
): Promise<RealtimeConnection> {
  const pending = model.connect({
    config,
    signal,
    ...(rawEvents && { rawEvents }),
    ...(resumeToken !== undefined && { resumeToken }),
  });
  return await abortable(pending, signal).catch((error) => {
    if (signal.aborted) {
      // A provider that ignores the signal may still hand over a connection: release it then.
      pending.then((late) => late.close()).catch(() => {});
    }
    throw error;
  });
}
