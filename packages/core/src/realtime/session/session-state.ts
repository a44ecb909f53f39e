import type { Agent } from '../../agent.js';
import { ParleyError } from '../../errors.js';
import type { RealtimeCommand, RealtimeConnection } from '../seam.js';
import type { AgentSessionConfig } from './agent-config.js';
import { SessionClosedError, SessionNotConnectedError } from './errors.js';
import { EventHub } from './event-hub.js';
import type { RealtimeErrorSource, RealtimeSessionEvent, RealtimeSessionStatus } from './events.js';

/**
 * What every unit of a session reads and the connection lifecycle writes: the status, the active agent,
 * the live connection, and the one way out to the app (events) and to the provider (commands).
 */
export class SessionState<TContext> {
  readonly hub: EventHub<RealtimeSessionEvent<TContext>>;
  status: RealtimeSessionStatus = 'idle';
  /** Set once `close()` was called. */
  closing = false;
  agent: Agent<TContext>;
  /** What the provider was last configured with for the active agent. */
  agentConfig: AgentSessionConfig | undefined;
  connection: RealtimeConnection | undefined;
  /** Aborted when the current connection is released: cancels work bound to it. */
  lifetime = new AbortController();

  /** The provider's name (for events that name it). */
  readonly provider: string;
  /** The app asked for the provider's original events (`rawEvents`). */
  readonly rawEvents: boolean;

  constructor(agent: Agent<TContext>, provider: string, rawEvents: boolean) {
    this.agent = agent;
    this.provider = provider;
    this.rawEvents = rawEvents;
    this.hub = new EventHub((error, event) => {
      if (event.type === 'error') return;
      this.reportError('listener', error, 'listener_failed');
    });
  }

  /** Connected and not closing: the session may speak to the provider. */
  get live(): boolean {
    return this.status === 'connected' && !this.closing;
  }

  /** The live connection; throws the error that says why there is none. */
  connectionFor(action: string): RealtimeConnection {
    if (this.closing || this.status === 'closed') throw new SessionClosedError();
    if (this.status !== 'connected' || !this.connection) throw new SessionNotConnectedError(action);
    return this.connection;
  }

  send(command: RealtimeCommand): void {
    this.connectionFor(`send ${command.type}`).send(command);
  }

  emit(event: RealtimeSessionEvent<TContext>): void {
    this.hub.emit(event);
  }

  reportError(source: RealtimeErrorSource, error: unknown, fallbackCode = 'unexpected_error'): void {
    const code = error instanceof ParleyError ? error.code : fallbackCode;
    const message = error instanceof Error ? error.message : String(error);
    this.emit({ type: 'error', source, code, message, error });
  }
}
