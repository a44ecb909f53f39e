import type { PlaybackTracker } from '../../playback/playback-tracker.js';
import type { EventHub } from '../events/event-hub.js';
import type { RealtimeSessionEvent } from '../events/events.js';
import type { OutputGuardrailMonitor } from '../guardrails/output-guardrail-monitor.js';
import type { HistoryMirror } from '../history/history-mirror.js';
import type { ResponseTracker } from '../responses/response-tracker.js';
import type { ContentProcessor, MessageContentEvent, MessageOrder } from './message-order.js';

/** What {@link deliverContent} needs from its session. */
export interface ContentDeliveryHost<TContext> {
  readonly messageOrder: MessageOrder;
  readonly tracker: PlaybackTracker;
  readonly mirror: HistoryMirror<TContext>;
  readonly guardrails: OutputGuardrailMonitor<TContext>;
  readonly responses: ResponseTracker<TContext>;
  /** Whether the response was interrupted (or abandoned): its further content is dropped. */
  readonly interruptions: { isStopped(responseId: string): boolean };
  /**
   * The session's events, reached directly (no closure hops on the per-delta path); `observed` says whether an
   * event would reach anyone: per-delta events nobody observes are not built.
   */
  readonly hub: EventHub<RealtimeSessionEvent<TContext>>;
}

/**
 * Delivers one piece of a message's content (its turn comes from {@link MessageOrder}): to the
 * history, the output guardrails, the playback tracker and the app. Content of a stopped response is
 * dropped: its audio is never played, its text never shown; only its audio is still counted (the
 * provider holds it, which bounds truncation). `responseId` and `itemId` are the event's (see
 * {@link ContentProcessor}).
 */
export function deliverContent<TContext>(
  host: ContentDeliveryHost<TContext>,
  event: MessageContentEvent,
  responseId: string,
  itemId: string,
): void {
  const stopped = host.interruptions.isStopped(responseId);
  switch (event.type) {
    case 'text_delta':
    case 'transcript_delta':
      if (stopped) return;
      host.mirror.delta(itemId, event.delta);
      host.guardrails.delta(responseId, event.delta);
      if (host.hub.observed(event.type))
        host.hub.emit({ type: event.type, responseId, itemId, delta: event.delta });
      return;
    case 'audio_delta':
      if (host.messageOrder.audio(responseId, itemId, event.audio.byteLength, !stopped)) {
        host.hub.emit({ type: 'audio_started', responseId, itemId });
      }
      if (stopped) return;
      host.responses.audio(responseId, itemId);
      host.mirror.audio(itemId);
      host.tracker.audioReceived(itemId, event.audio.byteLength / host.messageOrder.bytesPerMs);
      if (host.hub.observed('audio')) host.hub.emit({ type: 'audio', responseId, itemId, data: event.audio });
      return;
    case 'audio_done':
      host.messageOrder.audioDone(itemId);
      if (!stopped) host.hub.emit({ type: 'audio_done', responseId, itemId });
      return;
    case 'transcript_done':
      host.mirror.transcriptDone(event);
      return;
    case 'message_done':
      host.messageOrder.messageDone(itemId);
      host.mirror.messageDone(event);
      return;
  }
}
