import type { RealtimeContentPart, RealtimeEvent } from './seam.js';

/** An assistant message an adapter assembled from a service's output, at its end. */
export interface AssistantMessageEnd {
  responseId: string;
  itemId: string;
  /** Audio of it went to the app: `audio_done` closes its audio. */
  audio: boolean;
  /** What it said (empty when nothing was transcribed). */
  transcript: string;
  /** What it wrote (empty when it wrote nothing). */
  text: string;
  /** It was cut (the user spoke over it, or the app stopped it) before it ended. */
  incomplete: boolean;
}

/**
 * Ends an assistant message on the seam the same way in every adapter that assembles messages itself: a spoken
 * message (audio or a transcript) closes its audio (`audio_done`, if audio came) and its transcript
 * (`transcript_done`), then `message_done` carries the message item with its spoken and written content.
 */
export function endAssistantMessage(
  emit: (event: RealtimeEvent) => void,
  message: AssistantMessageEnd,
): void {
  const { responseId, itemId, transcript } = message;
  const content: RealtimeContentPart[] = [];
  if (message.audio || transcript) {
    if (message.audio) emit({ type: 'audio_done', responseId, itemId });
    emit({ type: 'transcript_done', responseId, itemId, transcript });
    content.push({ type: 'audio', transcript });
  }
  if (message.text) content.push({ type: 'text', text: message.text });
  emit({
    type: 'message_done',
    responseId,
    itemId,
    item: {
      type: 'message',
      itemId,
      role: 'assistant',
      content,
      status: message.incomplete ? 'incomplete' : 'completed',
    },
  });
}
