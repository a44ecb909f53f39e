import type { PlaybackTracker } from '../../playback/playback-tracker.js';
import type { EventHub } from '../events/event-hub.js';
import type { RealtimeSessionEvent } from '../events/events.js';
import type { OutputGuardrailMonitor } from '../guardrails/output-guardrail-monitor.js';
import type { HistoryMirror } from '../history/history-mirror.js';
import type { ResponseTracker } from '../responses/response-tracker.js';
import type { MessageContentEvent, MessageOrder } from './message-order.js';

/** What {@link deliverContent} needs from its session. */
export interface ContentDeliveryHost<TContext> {
  readonly messageOrder: Pick<MessageOrder, 'bytesPerMs' | 'audioDone' | 'messageDone'>;
  readonly tracker: Pick<PlaybackTracker, 'audioReceived'>;
  readonly mirror: Pick<HistoryMirror<TContext>, 'delta' | 'audio' | 'transcriptDone' | 'messageDone'>;
  readonly guardrails: Pick<OutputGuardrailMonitor<TContext>, 'delta'>;
  readonly responses: Pick<ResponseTracker<TContext>, 'audio'>;
  /**
   * The session's events, reached directly (no closure hops on the per-delta path); `observed` says whether an
   * event would reach anyone: per-delta events nobody observes are not built.
   */
  readonly hub: EventHub<RealtimeSessionEvent<TContext>>;
}

/**
 * Delivers one piece of a message's content, admitted by {@link MessageOrder} (which counted its audio): to the
 * history, the output guardrails, the playback tracker and the app. Content of a `stopped` response (interrupted
 * or abandoned) is dropped: its audio is never played, its text never shown. `firstAudio`: the first audio of its
 * message that reaches the app (`audio_started`; the history and the response tracker learn of it once).
 */
export function deliverContent<TContext>(
  host: ContentDeliveryHost<TContext>,
  event: MessageContentEvent,
  stopped: boolean,
  firstAudio: boolean,
): void {
  const { responseId, itemId } = event;
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
      if (firstAudio) {
        host.hub.emit({ type: 'audio_started', responseId, itemId });
        host.responses.audio(responseId);
        host.mirror.audio(itemId);
      }
      if (stopped) return;
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
