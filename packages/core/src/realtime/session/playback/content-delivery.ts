import type { PlaybackTracker } from '../../playback/playback-tracker.js';
import type { RealtimeEvent } from '../../seam.js';
import type { EventHub } from '../events/event-hub.js';
import type { RealtimeSessionEvent } from '../events/events.js';
import type { OutputGuardrailMonitor } from '../guardrails/output-guardrail-monitor.js';
import type { HistoryMirror } from '../history/history-mirror.js';
import type { ResponseTracker } from '../responses/response-tracker.js';
import type { StaleResponses } from '../responses/stale-responses.js';
import type { Interruptions } from './interruption.js';
import type { MessageContentEvent, MessageOrder } from './message-order.js';

/** What {@link ContentDelivery} needs from its session. */
export interface ContentDeliveryPort<TContext> {
  /** Each piece of content shows its response is alive. */
  readonly stale: Pick<StaleResponses, 'seen'>;
  /** Content of a stopped response (interrupted or abandoned) is counted, never played or shown. */
  readonly interruptions: Pick<Interruptions<TContext>, 'isStopped'>;
  readonly messageOrder: Pick<
    MessageOrder,
    'messageStarted' | 'admit' | 'next' | 'flush' | 'bytesPerMs' | 'audioDone' | 'messageDone'
  >;
  readonly tracker: Pick<PlaybackTracker, 'audioReceived'>;
  readonly mirror: Pick<
    HistoryMirror<TContext>,
    'messageStarted' | 'delta' | 'audio' | 'transcriptDone' | 'messageDone'
  >;
  readonly guardrails: Pick<OutputGuardrailMonitor<TContext>, 'delta'>;
  readonly responses: Pick<ResponseTracker<TContext>, 'audio'>;
  /**
   * The session's events, reached directly (no closure hops on the per-delta path); `observed` says whether an
   * event would reach anyone: per-delta events nobody observes are not built.
   */
  readonly hub: EventHub<RealtimeSessionEvent<TContext>>;
}

/**
 * The content of a response's messages, from the provider to the app: {@link MessageOrder} decides whether a piece
 * goes now (counting its audio) or waits for the messages before it; what goes now reaches the history, the output
 * guardrails, the playback tracker and the app, and the end of a message lets the next one's held content follow.
 * Content of a stopped response (interrupted or abandoned) is dropped: its audio is never played, its text never
 * shown. Every unit it calls returns to it: each is entered once per delta.
 */
export class ContentDelivery<TContext> {
  readonly #port: ContentDeliveryPort<TContext>;

  constructor(port: ContentDeliveryPort<TContext>) {
    this.#port = port;
  }

  /** The provider started a message of a response: its content is ordered from now on. */
  messageStarted(event: Extract<RealtimeEvent, { type: 'message_started' }>): void {
    this.#port.messageOrder.messageStarted(event.responseId, event.itemId);
    this.#port.mirror.messageStarted(event);
  }

  /**
   * A delta as it arrives: the per-delta path, the shape of {@link content} without its end of a message (only a
   * `message_done` ends one).
   */
  delta(
    event: Extract<MessageContentEvent, { type: 'audio_delta' | 'transcript_delta' | 'text_delta' }>,
  ): void {
    const port = this.#port;
    port.stale.seen(event.responseId);
    const stopped = port.interruptions.isStopped(event.responseId);
    const admission = port.messageOrder.admit(event, stopped);
    if (admission !== 'held') this.#deliver(event, stopped, admission === 'first_audio');
  }

  /** A piece of a message's content: delivered now, or held until the messages before it are done. */
  content(event: MessageContentEvent): void {
    const port = this.#port;
    const stopped = port.interruptions.isStopped(event.responseId);
    const admission = port.messageOrder.admit(event, stopped);
    if (admission === 'held') return;
    this.#deliver(event, stopped, admission === 'first_audio');
    if (admission === 'last') for (const due of port.messageOrder.next(event.responseId)) this.content(due);
  }

  /** The response ended: what was still held is delivered (or dropped), in order. */
  flush(responseId: string): void {
    for (const due of this.#port.messageOrder.flush(responseId)) this.content(due);
  }

  /** `firstAudio`: the first audio of its message that reaches the app (the history and the tracker learn of it once). */
  #deliver(event: MessageContentEvent, stopped: boolean, firstAudio: boolean): void {
    const port = this.#port;
    const { responseId, itemId } = event;
    switch (event.type) {
      case 'text_delta':
      case 'transcript_delta':
        if (stopped) return;
        port.mirror.delta(itemId, event.delta);
        port.guardrails.delta(responseId, event.delta);
        if (port.hub.observed(event.type))
          port.hub.emit({ type: event.type, responseId, itemId, delta: event.delta });
        return;
      case 'audio_delta':
        if (firstAudio) {
          port.hub.emit({ type: 'audio_started', responseId, itemId });
          port.responses.audio(responseId);
          port.mirror.audio(itemId);
        }
        if (stopped) return;
        port.tracker.audioReceived(itemId, event.audio.byteLength / port.messageOrder.bytesPerMs);
        if (port.hub.observed('audio'))
          port.hub.emit({ type: 'audio', responseId, itemId, data: event.audio });
        return;
      case 'audio_done':
        port.messageOrder.audioDone(itemId);
        if (!stopped) port.hub.emit({ type: 'audio_done', responseId, itemId });
        return;
      case 'transcript_done':
        port.mirror.transcriptDone(event);
        return;
      case 'message_done':
        port.messageOrder.messageDone(itemId);
        port.mirror.messageDone(event);
        return;
    }
  }
}
