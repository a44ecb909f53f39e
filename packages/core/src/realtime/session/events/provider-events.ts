import type { RunContext } from '../../../context.js';
import { log } from '../../../logger.js';
import { addUsage } from '../../../usage.js';
import type { RealtimeConnection, RealtimeEvent } from '../../seam.js';
import type { ConnectionLifecycle } from '../connection/connection-lifecycle.js';
import type { ConnectionSteps } from '../connection/connection-steps.js';
import {
  type BlockedRequest,
  ResponseRefusedError,
  SessionNotConnectedError,
  StaleResponseError,
} from '../errors.js';
import type { OutputGuardrailMonitor } from '../guardrails/output-guardrail-monitor.js';
import type { HistoryMirror } from '../history/history-mirror.js';
import { type ContentDeliveryHost, deliverContent } from '../playback/content-delivery.js';
import type { Interruptions } from '../playback/interruption.js';
import type { MessageContentEvent, MessageOrder } from '../playback/message-order.js';
import type { EphemeralResponses } from '../responses/ephemeral-responses.js';
import type { ResponseCoordinator } from '../responses/response-coordinator.js';
import type { ResponseRequests } from '../responses/response-requests.js';
import type { ResponseTracker } from '../responses/response-tracker.js';
import type { StaleResponses } from '../responses/stale-responses.js';
import type { SessionState } from '../session-state.js';
import type { Delegations } from '../tools/delegations.js';
import type { HostedTools } from '../tools/hosted-tools.js';
import type { ToolExecutor } from '../tools/tool-executor.js';
import type { TurnReports } from './turn-reports.js';

type EventOf<T extends RealtimeEvent['type']> = Extract<RealtimeEvent, { type: T }>;

/** The units provider events go to. */
export interface ProviderEventConsumers<TContext> {
  readonly runContext: RunContext<TContext>;
  readonly delegations: Delegations<TContext>;
  readonly lifecycle: Pick<ConnectionLifecycle<TContext>, 'ended' | 'expiring' | 'resumeToken'>;
  /** Sees every event but content deltas first (turn activity, replay echoes). */
  readonly steps: Pick<ConnectionSteps<TContext>, 'observe'>;
  readonly messageOrder: MessageOrder;
  readonly delivery: ContentDeliveryHost<TContext>;
  readonly mirror: HistoryMirror<TContext>;
  readonly coordinator: ResponseCoordinator;
  readonly responses: ResponseTracker<TContext>;
  readonly stale: StaleResponses;
  readonly requests: ResponseRequests;
  readonly ephemeral: EphemeralResponses;
  readonly interruptions: Interruptions<TContext>;
  readonly guardrails: OutputGuardrailMonitor<TContext>;
  readonly executor: ToolExecutor<TContext>;
  readonly hostedTools: HostedTools<TContext>;
  readonly turns: TurnReports<TContext>;
}

/**
 * The inbound router: each normalized provider event of the live connection goes to the units that consume
 * it, in one place and in the order the rules need. Events of a connection that is no longer the live one,
 * or that arrive while the session is not connected, are dropped.
 */
export class ProviderEventRouter<TContext> {
  readonly #state: SessionState<TContext>;
  readonly #to: ProviderEventConsumers<TContext>;

  constructor(state: SessionState<TContext>, consumers: ProviderEventConsumers<TContext>) {
    this.#state = state;
    this.#to = consumers;
  }

  /** Subscribes to `connection`'s events; returns the function that unsubscribes. */
  listen(connection: RealtimeConnection): () => void {
    return connection.onEvent((event) => {
      try {
        this.route(connection, event);
      } catch (error) {
        // A command a unit sent while handling the event found the connection gone: already reported.
        if (error instanceof SessionNotConnectedError && connection.status !== 'open') return;
        throw error;
      }
    });
  }

  readonly route = (connection: RealtimeConnection, event: RealtimeEvent): void => {
    const state = this.#state;
    if (connection !== state.connection || state.status !== 'connected' || state.closing) return;
    const to = this.#to;
    // The per-delta path first: the lifecycle's observer has nothing to do with content deltas.
    const type = event.type;
    if (type === 'audio_delta' || type === 'transcript_delta' || type === 'text_delta') {
      to.stale.seen(event.responseId);
      this.#content(event);
      return;
    }
    if (to.steps.observe(event)) return;
    if ('responseId' in event && event.responseId !== undefined) to.stale.seen(event.responseId);
    switch (type) {
      case 'connection_status':
        if (event.status === 'disconnected') {
          to.lifecycle.ended(event.reason ?? 'provider_disconnected', 'connection_lost');
        }
        return;
      case 'response_started':
        this.#responseStarted(event);
        return;
      case 'response_done':
        this.#responseDone(event);
        return;
      case 'message_started':
        to.messageOrder.messageStarted(event.responseId, event.itemId);
        to.mirror.messageStarted(event);
        return;
      case 'audio_done':
      case 'transcript_done':
      case 'message_done':
        this.#content(event);
        return;
      case 'function_call':
        if (event.responseId !== undefined && to.responses.wasDropped(event.responseId)) {
          this.#ignored(
            `The provider delivered tool call ${event.callId} of response ${event.responseId} after the session dropped that response as stale; not run.`,
          );
          return;
        }
        to.mirror.functionCallArrived(event);
        to.executor.callReceived(event);
        return;
      case 'function_call_cancelled':
        to.executor.callCancelled(event.callId);
        return;
      case 'hosted_tool_call':
        to.hostedTools.called(event);
        return;
      case 'hosted_tool_approval_requested':
        to.hostedTools.approvalRequested(event);
        return;
      case 'input_speech_started':
        to.interruptions.interrupt('speech');
        return;
      case 'input_speech_stopped':
        return;
      case 'input_audio_committed':
        to.mirror.inputCommitted(event);
        return;
      case 'input_transcription':
        to.mirror.inputTranscription(event);
        return;
      case 'item_added':
        to.mirror.itemAdded(event);
        return;
      case 'item_deleted':
        to.turns.removing(event.itemId);
        to.mirror.itemDeleted(event);
        return;
      case 'item_truncated':
        to.mirror.itemTruncated(event);
        if (event.heardMs !== undefined) to.interruptions.serviceTruncated(event.itemId, event.heardMs);
        return;
      case 'output_audio_started':
        to.interruptions.servicePlaying.started(event.responseId);
        return;
      case 'output_audio_stopped':
      case 'output_audio_cleared':
        to.interruptions.servicePlaying.stopped(event.responseId);
        return;
      case 'delegation_requested':
        to.delegations.requested(event);
        return;
      case 'context_appended':
      case 'usage_updated':
        state.emit(event);
        return;
      case 'output_silence':
        if (state.hub.observed('output_silence')) state.emit(event);
        return;
      case 'error':
        this.#error(event);
        return;
      case 'session_expiring':
        to.lifecycle.expiring(event.expiresAt);
        return;
      case 'resume_token':
        to.lifecycle.resumeToken(event);
        return;
      case 'session_expired':
        this.#sessionExpired(event);
        return;
      case 'dtmf_received':
        state.emit({ type: 'dtmf', digit: event.digit, source: 'provider' });
        return;
      case 'raw_event':
        if (state.rawEvents) state.emit({ type: 'raw_event', provider: state.provider, event: event.event });
        return;
    }
  };

  /**
   * A piece of a message's content: {@link MessageOrder} decides whether it goes now (counting its audio) or waits
   * for the messages before it; what goes now is delivered, and the end of a message lets the next one's held
   * content follow.
   */
  #content(event: MessageContentEvent): void {
    const to = this.#to;
    const stopped = to.interruptions.isStopped(event.responseId);
    const admission = to.messageOrder.admit(event, stopped);
    if (admission === 'held') return;
    deliverContent(to.delivery, event, stopped, admission === 'first_audio');
    if (admission === 'last') for (const due of to.messageOrder.next(event.responseId)) this.#content(due);
  }

  #responseStarted(event: EventOf<'response_started'>): void {
    const to = this.#to;
    const known = to.responses.get(event.responseId);
    if (to.responses.wasDropped(event.responseId)) {
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
    const { request, abandoned } = to.coordinator.responseStarted(event);
    const info = to.responses.track(event.responseId, event.ephemeral);
    info.started = true;
    if (request !== undefined || abandoned) info.clientRequestId = event.clientRequestId;
    to.stale.begin(event.responseId);
    const id = event.clientRequestId;
    if (id !== undefined) {
      to.requests.started(id, event.responseId);
      to.ephemeral.started(id, event.responseId);
    }
    // The session gave up on it (a timeout, an interrupted ephemeral response): it must not speak now.
    if (abandoned) to.interruptions.abandoned(event.responseId);
    // Ephemeral responses carry the app's own words and never enter history: no output guardrails run on them.
    if (!event.ephemeral) to.guardrails.begin(event.responseId, info.agent);
    this.#state.emit({
      type: 'response_started',
      responseId: event.responseId,
      ephemeral: event.ephemeral,
      agent: info.agent,
      ...(event.clientRequestId !== undefined && { clientRequestId: event.clientRequestId }),
    });
  }

  #responseDone(event: EventOf<'response_done'>): void {
    const to = this.#to;
    const known = to.responses.get(event.responseId);
    if (known?.done || (!known && to.responses.wasDropped(event.responseId))) {
      this.#ignored(
        `The provider reported response ${event.responseId} ended after it had already ended; ignored.`,
      );
      return;
    }
    to.stale.end(event.responseId);
    for (const due of to.messageOrder.flush(event.responseId)) this.#content(due);
    const info = known ?? to.responses.track(event.responseId, event.ephemeral);
    info.done = true;
    if (event.status !== 'completed') info.interrupted = true;
    if (event.usage) addUsage(to.runContext.usage, { requests: 1, ...event.usage });
    // Ended before it was reported started: its request is answered all the same (started, then done).
    if (event.clientRequestId !== undefined && !info.started) {
      to.requests.started(event.clientRequestId, event.responseId);
    }
    if (event.clientRequestId !== undefined) to.requests.stopTimeout(event.clientRequestId);
    to.ephemeral.ended(event.clientRequestId, event.responseId);
    // Truncations go out before the coordinator may request the next response.
    if (to.interruptions.isStopped(event.responseId)) to.interruptions.responseDone(event.responseId);
    else if (info.interrupted) to.mirror.responseInterrupted(event.responseId);
    to.coordinator.responseDone(event);
    to.mirror.responseEnded();
    to.guardrails.end(event.responseId);
    to.requests.responseDone(event.responseId, event.status);
    this.#state.emit({
      type: 'response_done',
      responseId: event.responseId,
      status: event.status,
      ephemeral: event.ephemeral,
      ...(event.reason !== undefined && { reason: event.reason }),
      ...(event.errorCode !== undefined && { errorCode: event.errorCode }),
      ...(event.usage !== undefined && { usage: event.usage }),
    });
    if (!event.ephemeral) to.turns.responseDone(event.responseId, info.agent, event.status, event.reason);
  }

  /**
   * A started response sent nothing for `staleResponseMs`: it is cancelled by its id (its later events are
   * dropped) and ended here as `failed` (reason `stale`), so nothing waits on it any more.
   */
  readonly dropStale = (responseId: string, blocked?: BlockedRequest): void => {
    const state = this.#state;
    const to = this.#to;
    const info = to.responses.get(responseId);
    if (state.status !== 'connected' || state.closing || !info || info.done) return;
    to.responses.drop(responseId);
    try {
      to.interruptions.abandoned(responseId);
    } catch (error) {
      state.reportError('session', error);
    }
    this.#responseDone({
      type: 'response_done',
      responseId,
      status: 'failed',
      ephemeral: info.ephemeral,
      reason: 'stale',
    });
    const requestId = info.clientRequestId;
    state.reportError(
      'session',
      new StaleResponseError(responseId, to.stale.staleMs, requestId, blocked),
      undefined,
      requestId,
    );
  };

  /**
   * An event of a response that cannot apply any more: a start or end of one that already started or ended (twice,
   * late, or after a drop), or a tool call of one dropped as stale (it was cancelled). No new turn, nothing run.
   */
  #ignored(message: string): void {
    this.#state.emit({ type: 'warning', code: 'response_event_ignored', message });
  }

  #error(event: EventOf<'error'>): void {
    const to = this.#to;
    let refusal: ResponseRefusedError | undefined;
    let id = event.clientRequestId;
    // A refusal of a response request releases the queue, whether or not it names the request.
    if (id !== undefined || event.commandType === 'createResponse') {
      const request = to.coordinator.requestRefused(id);
      id ??= request?.clientRequestId;
      if (id !== undefined) {
        to.requests.stopTimeout(id);
        to.ephemeral.ended(id);
      }
      if (request) {
        refusal = new ResponseRefusedError(event.code, event.message, request.clientRequestId);
        to.requests.fail(request.clientRequestId, refusal);
      }
    }
    log.error(`The realtime provider reported an error: ${event.message}`, {
      event: 'provider_error',
      code: event.code,
      fatal: event.fatal,
      clientRequestId: id,
    });
    this.#state.emit({
      type: 'error',
      source: 'provider',
      code: event.code,
      message: event.message,
      ...(refusal && { error: refusal }),
      ...(id !== undefined && { clientRequestId: id }),
      ...(event.fatal !== undefined && { fatal: event.fatal }),
    });
    if (event.fatal) to.lifecycle.ended(`fatal provider error: ${event.code}`);
  }

  /** The provider's session limit: reported like a fatal provider error, then a reconnect where allowed. */
  #sessionExpired(event: EventOf<'session_expired'>): void {
    const code = 'session_expired';
    this.#state.emit({ type: 'error', source: 'provider', code, message: event.message, fatal: true });
    this.#to.lifecycle.ended(`fatal provider error: ${code}`, 'session_expired');
  }
}
