import { PCM16_BYTES_PER_MS } from '../audio.js';
import type { PlaybackTracker } from '../playback/playback-tracker.js';
import type { RealtimeSessionEvent } from './events.js';
import type { HistoryMirror } from './history-mirror.js';
import type { MessageContentEvent, MessagePlayout } from './message-playout.js';
import type { OutputGuardrailMonitor } from './output-guardrail-monitor.js';
import type { ResponseTracker } from './response-tracker.js';

/** What {@link deliverContent} needs from its session. */
export interface ContentDeliveryHost<TContext> {
  readonly playout: MessagePlayout;
  readonly tracker: PlaybackTracker;
  readonly mirror: HistoryMirror<TContext>;
  readonly guardrails: OutputGuardrailMonitor<TContext>;
  readonly responses: ResponseTracker<TContext>;
  /** Whether the response was interrupted (or abandoned): its further content is dropped. */
  isStopped(responseId: string): boolean;
  emit(event: RealtimeSessionEvent<TContext>): void;
}

/**
 * Delivers one piece of a message's content (its turn comes from {@link MessagePlayout}): to the
 * history, the output guardrails, the playback tracker and the app. Content of a stopped response is
 * dropped: its audio is never played, its text never shown; only its audio is still counted (the
 * provider holds it, which bounds truncation).
 */
export function deliverContent<TContext>(
  host: ContentDeliveryHost<TContext>,
  event: MessageContentEvent,
): void {
  const stopped = host.isStopped(event.responseId);
  const ids = { responseId: event.responseId, itemId: event.itemId };
  switch (event.type) {
    case 'text_delta':
    case 'transcript_delta':
      if (stopped) return;
      host.mirror.delta(event.itemId, event.delta);
      host.guardrails.delta(event.responseId, event.delta);
      host.emit({ type: event.type, ...ids, delta: event.delta });
      return;
    case 'audio_delta':
      host.playout.audio(event.responseId, event.itemId, event.audio.byteLength, !stopped);
      if (stopped) return;
      host.responses.audio(event.responseId, event.itemId);
      host.mirror.audio(event.itemId);
      host.tracker.audioReceived(event.itemId, event.audio.byteLength / PCM16_BYTES_PER_MS);
      host.emit({ type: 'audio', ...ids, data: event.audio });
      return;
    case 'audio_done':
      host.playout.audioDone(event.itemId);
      if (!stopped) host.emit({ type: 'audio_done', ...ids });
      return;
    case 'transcript_done':
      host.mirror.transcriptDone(event);
      return;
    case 'message_done':
      host.playout.messageDone(event.itemId);
      host.mirror.messageDone(event);
      return;
  }
}
