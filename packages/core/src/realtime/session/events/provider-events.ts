import type { RealtimeConnection, RealtimeEvent } from '../../seam.js';
import type { ConnectionLifecycle } from '../connection/connection-lifecycle.js';
import { SessionNotConnectedError } from '../errors.js';
import type { HistoryMirror } from '../history/history-mirror.js';
import type { ContentDelivery } from '../playback/content-delivery.js';
import type { Interruptions } from '../playback/interruption.js';
import type { SessionState } from '../session-state.js';
import type { Delegations } from '../tools/delegations.js';
import type { HostedTools } from '../tools/hosted-tools.js';
import type { ToolExecutor } from '../tools/tool-executor.js';
import type { ResponseEvents } from './response-events.js';

type EventOf<T extends RealtimeEvent['type']> = Extract<RealtimeEvent, { type: T }>;

/** The units provider events go to (the router's port). */
export interface ProviderEventConsumers<TContext> {
  /**
   * The live connection's owner: it sees every event but content deltas first (turn activity, replay echoes), and
   * ends the connection, plans its recycle at an expiry, keeps a resume token.
   */
  readonly lifecycle: Pick<ConnectionLifecycle<TContext>, 'observe' | 'ended' | 'expiring' | 'resumeToken'>;
  /** A response's start and end, the provider's errors, and that a response is alive. */
  readonly responses: Pick<ResponseEvents<TContext>, 'seen' | 'started' | 'done' | 'error'>;
  /** The content of a response's messages (the per-delta path). */
  readonly content: Pick<ContentDelivery<TContext>, 'messageStarted' | 'delta' | 'content'>;
  /** The conversation's items, as the provider reports them. */
  readonly mirror: Pick<
    HistoryMirror<TContext>,
    'inputCommitted' | 'inputTranscription' | 'itemAdded' | 'itemDeleted' | 'itemTruncated'
  >;
  readonly interruptions: Pick<Interruptions<TContext>, 'interrupt' | 'serviceTruncated' | 'servicePlaying'>;
  readonly executor: Pick<ToolExecutor<TContext>, 'callReceived' | 'callCancelled'>;
  readonly delegations: Pick<Delegations<TContext>, 'requested'>;
  /** The provider's own (hosted) tool calls and their approvals. */
  readonly hostedTools: Pick<HostedTools<TContext>, 'called' | 'approvalRequested'>;
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
      to.content.delta(event);
      return;
    }
    if (to.lifecycle.observe(event)) return;
    if ('responseId' in event && event.responseId !== undefined) to.responses.seen(event.responseId);
    switch (type) {
      case 'connection_status':
        if (event.status === 'disconnected') {
          to.lifecycle.ended(event.reason ?? 'provider_disconnected', 'connection_lost');
        }
        return;
      case 'response_started':
        to.responses.started(event);
        return;
      case 'response_done':
        to.responses.done(event);
        return;
      case 'message_started':
        to.content.messageStarted(event);
        return;
      case 'audio_done':
      case 'transcript_done':
      case 'message_done':
        to.content.content(event);
        return;
      case 'function_call':
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
        to.responses.error(event);
        if (event.fatal) to.lifecycle.ended(`fatal provider error: ${event.code}`);
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

  /** The provider's session limit: reported like a fatal provider error, then a reconnect where allowed. */
  #sessionExpired(event: EventOf<'session_expired'>): void {
    const code = 'session_expired';
    this.#state.emit({ type: 'error', source: 'provider', code, message: event.message, fatal: true });
    this.#to.lifecycle.ended(`fatal provider error: ${code}`, 'session_expired');
  }
}
