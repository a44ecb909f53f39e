import type { RunContext } from '../../../context.js';
import { log } from '../../../logger.js';
import { addUsage } from '../../../usage.js';
import type { RealtimeEvent } from '../../seam.js';
import { type BlockedRequest, type ResponseRefusedError, StaleResponseError } from '../errors.js';
import type { OutputGuardrailMonitor } from '../guardrails/output-guardrail-monitor.js';
import type { HistoryMirror } from '../history/history-mirror.js';
import type { ContentDelivery } from '../playback/content-delivery.js';
import type { Interruptions } from '../playback/interruption.js';
import type { ResponseGeneration } from '../responses/response-generation.js';
import type { ResponseTracker } from '../responses/response-tracker.js';
import type { SessionState } from '../session-state.js';
import type { TurnReports } from './turn-reports.js';

type EventOf<T extends RealtimeEvent['type']> = Extract<RealtimeEvent, { type: T }>;

/** What {@link ResponseEvents} needs from its session. */
export interface ResponseEventsPort<TContext> {
  /** Whether the session is live, and the way out to the app. */
  readonly state: Pick<SessionState<TContext>, 'status' | 'closing' | 'emit' | 'reportError'>;
  readonly responses: Pick<ResponseTracker<TContext>, 'get' | 'track' | 'wasDropped' | 'drop'>;
  /** The session's requests for responses, and the stale watch of those started. */
  readonly generation: Pick<
    ResponseGeneration<TContext>,
    'responseStarted' | 'answered' | 'responseDone' | 'refused' | 'stale'
  >;
  /** What a response's messages still hold back when it ends. */
  readonly content: Pick<ContentDelivery<TContext>, 'flush'>;
  readonly interruptions: Pick<Interruptions<TContext>, 'abandoned' | 'isStopped' | 'responseDone'>;
  readonly guardrails: Pick<OutputGuardrailMonitor<TContext>, 'begin' | 'end'>;
  readonly mirror: Pick<HistoryMirror<TContext>, 'responseInterrupted' | 'responseEnded'>;
  readonly turns: Pick<TurnReports<TContext>, 'responseDone'>;
}

/**
 * A response's start and end, as the provider reports them (or as the session ends a stale one): each goes to the
 * units it concerns, in the order the rules need, once. A start or end that cannot apply any more (twice, late, or
 * after the session dropped the response) is a `warning`, and changes nothing.
 */
export class ResponseEvents<TContext> {
  readonly #settings: { readonly runContext: RunContext<TContext> };
  readonly #port: ResponseEventsPort<TContext>;

  constructor(settings: { readonly runContext: RunContext<TContext> }, port: ResponseEventsPort<TContext>) {
    this.#settings = settings;
    this.#port = port;
  }

  /** An event of `responseId` arrived: it is not stale. */
  seen(responseId: string): void {
    this.#port.generation.stale.seen(responseId);
  }

  started(event: EventOf<'response_started'>): void {
    const port = this.#port;
    const known = port.responses.get(event.responseId);
    if (port.responses.wasDropped(event.responseId)) {
      this.#ignored(
        `The provider reported response ${event.responseId} started after the session dropped it as stale; ignored.`,
      );
      return;
    }
    if (known?.started || known?.done) {
      this.#ignored(
        `The provider reported response ${event.responseId} started after it had already ${known.done ? 'ended' : 'started'}; ignored.`,
      );
      return;
    }
    const { request, abandoned } = port.generation.responseStarted(event);
    const info = port.responses.track(event.responseId, event.ephemeral);
    info.started = true;
    if (request !== undefined || abandoned) info.clientRequestId = event.clientRequestId;
    // The session gave up on it (a timeout, an interrupted ephemeral response): it must not speak now.
    if (abandoned) port.interruptions.abandoned(event.responseId);
    // Ephemeral responses carry the app's own words and never enter history: no output guardrails run on them.
    if (!event.ephemeral) port.guardrails.begin(event.responseId, info.agent);
    port.state.emit({
      type: 'response_started',
      responseId: event.responseId,
      ephemeral: event.ephemeral,
      agent: info.agent,
      ...(event.clientRequestId !== undefined && { clientRequestId: event.clientRequestId }),
    });
  }

  done(event: EventOf<'response_done'>): void {
    const port = this.#port;
    const known = port.responses.get(event.responseId);
    if (known?.done || (!known && port.responses.wasDropped(event.responseId))) {
      this.#ignored(
        `The provider reported response ${event.responseId} ended after it had already ended; ignored.`,
      );
      return;
    }
    port.content.flush(event.responseId);
    const info = known ?? port.responses.track(event.responseId, event.ephemeral);
    info.done = true;
    if (event.status !== 'completed') info.interrupted = true;
    if (event.usage) addUsage(this.#settings.runContext.usage, { requests: 1, ...event.usage });
    port.generation.answered(event, info.started);
    // Truncations go out before the coordinator may request the next response.
    if (port.interruptions.isStopped(event.responseId)) port.interruptions.responseDone(event.responseId);
    else if (info.interrupted) port.mirror.responseInterrupted(event.responseId);
    port.generation.responseDone(event);
    port.mirror.responseEnded();
    port.guardrails.end(event.responseId);
    port.state.emit({
      type: 'response_done',
      responseId: event.responseId,
      status: event.status,
      ephemeral: event.ephemeral,
      ...(event.reason !== undefined && { reason: event.reason }),
      ...(event.errorCode !== undefined && { errorCode: event.errorCode }),
      ...(event.usage !== undefined && { usage: event.usage }),
    });
    if (!event.ephemeral) port.turns.responseDone(event.responseId, info.agent, event.status, event.reason);
  }

  /**
   * A started response sent nothing for `staleResponseMs`: it is cancelled by its id (its later events are
   * dropped) and ended here as `failed` (reason `stale`), so nothing waits on it any more.
   */
  readonly dropStale = (responseId: string, blocked?: BlockedRequest): void => {
    const port = this.#port;
    const { state } = port;
    const info = port.responses.get(responseId);
    if (state.status !== 'connected' || state.closing || !info || info.done) return;
    port.responses.drop(responseId);
    try {
      port.interruptions.abandoned(responseId);
    } catch (error) {
      state.reportError('session', error);
    }
    this.done({
      type: 'response_done',
      responseId,
      status: 'failed',
      ephemeral: info.ephemeral,
      reason: 'stale',
    });
    const requestId = info.clientRequestId;
    state.reportError(
      'session',
      new StaleResponseError(responseId, port.generation.stale.staleMs, requestId, blocked),
      undefined,
      requestId,
    );
  };

  /**
   * A provider error, reported to the app as an `error` event; where it refuses a response request (named, or the
   * one the provider was asked for), the request's handle fails with a {@link ResponseRefusedError}.
   */
  error(event: EventOf<'error'>): void {
    const { clientRequestId, refusal } = this.#port.generation.refused(event);
    log.error(`The realtime provider reported an error: ${event.message}`, {
      event: 'provider_error',
      code: event.code,
      fatal: event.fatal,
      clientRequestId,
    });
    this.#port.state.emit({
      type: 'error',
      source: 'provider',
      code: event.code,
      message: event.message,
      ...(refusal && { error: refusal }),
      ...(clientRequestId !== undefined && { clientRequestId }),
      ...(event.fatal !== undefined && { fatal: event.fatal }),
    });
  }

  /**
   * An event of a response that cannot apply any more: a start or end of one that already started or ended (twice,
   * late, or after a drop). No new turn, nothing run.
   */
  #ignored(message: string): void {
    this.#port.state.emit({ type: 'warning', code: 'response_event_ignored', message });
  }
}
