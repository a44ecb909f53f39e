import type { Agent } from '../../agent.js';
import { ParleyError } from '../../errors.js';
import { errorText } from '../../logger.js';
import type { RealtimeCommand, RealtimeConnection } from '../seam.js';
import type { AgentSessionConfig } from './agents/agent-config.js';
import { Resumption } from './connection/resumption.js';
import { ConnectionLostError, SessionClosedError, SessionNotConnectedError } from './errors.js';
import { EventHub } from './events/event-hub.js';
import type { RealtimeErrorSource, RealtimeSessionEvent, RealtimeSessionStatus } from './events/events.js';

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
  /**
   * Called (in a microtask) when the live connection turned out not to be open any more while the session still
   * counted it as live: the connection lifecycle ends the connection.
   */
  readonly #onConnectionLost: (connection: RealtimeConnection, detail: string) => void;
  /** The connection already reported lost (once per connection). */
  #lost: RealtimeConnection | undefined;

  /** The provider's name (for events that name it). */
  readonly provider: string;
  /** The app asked for the provider's original events (`rawEvents`). */
  readonly rawEvents: boolean;
  /** The conversation's latest resume token, and what it holds (providers with `sessionResumption`). */
  readonly resumption: Resumption;

  constructor(
    agent: Agent<TContext>,
    provider: string,
    rawEvents: boolean,
    resumable: boolean,
    onConnectionLost: (connection: RealtimeConnection, detail: string) => void,
  ) {
    this.#onConnectionLost = onConnectionLost;
    this.agent = agent;
    this.provider = provider;
    this.rawEvents = rawEvents;
    this.resumption = new Resumption(resumable);
    this.hub = new EventHub((error, event) => {
      if (event.type === 'error') return;
      this.reportError('listener', error, 'listener_failed');
    });
  }

  /** Connected and not closing: the session may speak to the provider. */
  get live(): boolean {
    return this.status === 'connected' && !this.closing;
  }

  /**
   * The live connection; throws the error that says why there is none. A connection that stopped being open
   * before it said so is refused at once (and reported lost), so nothing is handed to a socket that drops it.
   */
  connectionFor(action: string): RealtimeConnection {
    if (this.closing || this.status === 'closed') throw new SessionClosedError();
    const connection = this.connection;
    if (this.status !== 'connected' || !connection) throw new SessionNotConnectedError(action);
    if (connection.status !== 'open') {
      this.#connectionLost(connection, 'the connection stopped being open');
      throw new SessionNotConnectedError(action, {
        reason: 'the realtime connection was lost; the session is handling it (see the connection events).',
      });
    }
    return connection;
  }

  /**
   * Sends `command` on the live connection. A command the connection refuses while staying open (it could not
   * express it) throws what the connection threw. One it could not write because it is no longer open (closing,
   * or a write that failed) is never lost silently: an `error` event reports it, the connection is ended (the
   * disconnect path: reconnecting where enabled), and the caller gets a `SessionNotConnectedError`.
   */
  send(command: RealtimeCommand, action?: string): void {
    let connection = this.connection;
    // `connectionFor` throws the error that says why there is no live connection; only that error needs `action`.
    if (
      connection === undefined ||
      this.closing ||
      this.status !== 'connected' ||
      connection.status !== 'open'
    )
      connection = this.connectionFor(action ?? `send ${command.type}`);
    try {
      connection.send(command);
      this.resumption.sent(command);
    } catch (error) {
      if (connection.status === 'open') throw error;
      const detail = errorText(error);
      this.reportError(
        'session',
        new ConnectionLostError(
          `The realtime connection failed while sending "${command.type}" (${detail}); the command was not sent.`,
          { cause: error },
        ),
      );
      this.#connectionLost(connection, `sending "${command.type}" failed: ${detail}`);
      throw new SessionNotConnectedError(action ?? `send ${command.type}`, {
        reason: 'the realtime connection was lost while sending it; it was not sent.',
        cause: error,
      });
    }
  }

  #connectionLost(connection: RealtimeConnection, detail: string): void {
    if (this.#lost === connection) return;
    this.#lost = connection;
    // After the caller's own handling of the failure: ending the connection runs the lost-turn report.
    queueMicrotask(() => this.#onConnectionLost(connection, detail));
  }

  emit(event: RealtimeSessionEvent<TContext>): void {
    this.hub.emit(event);
  }

  reportError(
    source: RealtimeErrorSource,
    error: unknown,
    fallbackCode = 'unexpected_error',
    clientRequestId?: string,
  ): void {
    const code = error instanceof ParleyError ? error.code : fallbackCode;
    const message = errorText(error);
    this.emit({
      type: 'error',
      source,
      code,
      message,
      error,
      ...(clientRequestId !== undefined && { clientRequestId }),
    });
  }
}
