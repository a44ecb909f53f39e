import type { Agent } from '../../../agent.js';
import type { RealtimeEvent } from '../../seam.js';
import type { MessageOutcome } from '../playback/interruption.js';
import type { ResponseTracker } from '../responses/response-tracker.js';
import { UnclaimedItems } from '../responses/unclaimed-items.js';
import { itemText, type RealtimeHistory } from './history.js';

type EventOf<T extends RealtimeEvent['type']> = Extract<RealtimeEvent, { type: T }>;

const USER_AUDIO = {
  role: 'user',
  text: '',
  hasAudio: true,
  status: 'in_progress',
  interrupted: false,
} as const;

/**
 * Applies provider events to the session's {@link RealtimeHistory}. Providers report the same item
 * through several events (output events and `item_added`), in either order: every method merges.
 * Out-of-band responses never reach the history.
 */
export class HistoryMirror<TContext> {
  readonly #history: RealtimeHistory;
  readonly #responses: ResponseTracker<TContext>;
  readonly #stopped: (responseId: string) => boolean;
  readonly #unclaimed: UnclaimedItems;
  readonly #removing: (itemId: string) => void;
  /** User messages whose transcription has begun (deltas arrived) but not finished. Created on first use. */
  #transcribing: Set<string> | undefined;

  /**
   * `stopped` says whether a response was interrupted: its later messages never enter the history.
   * `outOfBandPending`: an out-of-band response is requested or streaming (it may claim announced items).
   * `removing` is told of an item the provider deletes before it leaves the history (the turn reports keep a
   * stopped response's message).
   */
  constructor(
    history: RealtimeHistory,
    responses: ResponseTracker<TContext>,
    stopped: (responseId: string) => boolean,
    outOfBandPending: () => boolean = () => false,
    removing: (itemId: string) => void = () => {},
  ) {
    this.#history = history;
    this.#responses = responses;
    this.#stopped = stopped;
    this.#removing = removing;
    this.#unclaimed = new UnclaimedItems(outOfBandPending);
  }

  messageStarted(event: EventOf<'message_started'>): void {
    const response = this.#responses.track(event.responseId);
    const stopped = this.#stopped(event.responseId);
    this.#claim(event.itemId, response.ephemeral, stopped, event.responseId);
    if (response.ephemeral || stopped) return;
    this.#history.upsertMessage(event.itemId, {
      role: 'assistant',
      text: '',
      hasAudio: false,
      status: 'in_progress',
      interrupted: response.interrupted,
      responseId: event.responseId,
      agentName: response.agent.name,
    });
  }

  /** Transcript or text delta: appended without an event; the item's next update publishes it. */
  delta(itemId: string, delta: string): void {
    this.#history.appendText(itemId, delta);
  }

  /** Audio of a message arrived: it is spoken (without an event; the item's next update publishes it). */
  audio(itemId: string): void {
    this.#history.markAudio(itemId);
  }

  transcriptDone(event: EventOf<'transcript_done'>): void {
    // After an interruption the history keeps what arrived before it, not the provider's full transcript.
    if (this.#stopped(event.responseId)) return;
    this.#history.updateMessage(event.itemId, { text: event.transcript, hasAudio: true });
  }

  messageDone(event: EventOf<'message_done'>): void {
    const response = this.#responses.track(event.responseId);
    this.#claim(event.itemId, response.ephemeral, this.#stopped(event.responseId), event.responseId);
    if (response.ephemeral || event.item.type !== 'message') return;
    const current = this.#history.get(event.itemId);
    const currentMessage = current?.type === 'message' ? current : undefined;
    const stopped = this.#stopped(event.responseId);
    if (stopped && !currentMessage) return;
    this.#history.upsertMessage(event.itemId, {
      role: event.item.role,
      text: stopped ? (currentMessage?.text ?? '') : itemText(event.item) || (currentMessage?.text ?? ''),
      hasAudio:
        event.item.content.some((part) => part.type === 'audio') || (currentMessage?.hasAudio ?? false),
      status: event.item.status ?? 'completed',
      interrupted: response.interrupted,
      responseId: event.responseId,
      agentName: response.agent.name,
    });
  }

  /** A function call arrived (before it is run or ignored): it claims its item for its response. */
  functionCallArrived(event: EventOf<'function_call'>): void {
    const ephemeral = event.responseId !== undefined && this.#responses.track(event.responseId).ephemeral;
    this.#claim(event.itemId, ephemeral, false, event.responseId);
  }

  /** A response ended: announcements no out-of-band response can claim any more are dropped. */
  responseEnded(): void {
    this.#unclaimed.settle();
  }

  functionCall(event: EventOf<'function_call'>, agent: Agent<TContext>): void {
    this.#history.upsertCall(event.itemId, {
      callId: event.callId,
      name: event.name,
      arguments: event.arguments,
      status: 'in_progress',
      agentName: agent.name,
      ...(event.responseId !== undefined && { responseId: event.responseId }),
    });
  }

  /** The output the session sent for a call. */
  toolOutput(callId: string, output: string): void {
    this.#history.updateCall(callId, { output, status: 'completed' });
  }

  /** The provider withdrew a call: it stays in history, marked cancelled, without an output. */
  toolCancelled(callId: string): void {
    this.#history.updateCall(callId, { status: 'cancelled' });
  }

  inputCommitted(event: EventOf<'input_audio_committed'>): void {
    this.#history.upsertMessage(event.itemId, USER_AUDIO);
  }

  inputTranscription(event: EventOf<'input_transcription'>): void {
    if (!this.#history.get(event.itemId)) this.#history.upsertMessage(event.itemId, USER_AUDIO);
    if (event.final) {
      this.#transcribing?.delete(event.itemId);
      this.#history.updateMessage(event.itemId, { text: event.text, status: 'completed' });
    } else {
      this.#transcribing ??= new Set();
      this.#transcribing.add(event.itemId);
      this.#history.appendText(event.itemId, event.text);
    }
  }

  /**
   * The connection ended (lost, closed, replaced): a user turn cut mid-transcription will never get its final
   * transcript. It is marked partial (`interrupted`, status `incomplete`), so nobody takes its text as complete.
   */
  transcriptionsCut(): void {
    if (!this.#transcribing?.size) return;
    for (const itemId of this.#transcribing) {
      this.#history.updateMessage(itemId, { status: 'incomplete', interrupted: true });
    }
    this.#transcribing.clear();
  }

  itemAdded(event: EventOf<'item_added'>): void {
    const { item } = event;
    if (item.type === 'function_call_output') {
      this.toolOutput(item.callId, item.output);
      return;
    }
    // An out-of-band response's output never enters the history: announced after it claimed it (twice, late),
    // or before (held until a response claims it).
    if (this.#responses.isOutOfBandItem(item.itemId) || this.#unclaimed.hold(event)) return;
    this.#apply(event);
  }

  /** Applies an announcement to the history. */
  #apply(event: EventOf<'item_added'>): void {
    const { item } = event;
    const placement = event.previousItemId !== undefined ? { previousItemId: event.previousItemId } : {};
    if (item.type === 'function_call_output') return;
    if (item.type === 'function_call') {
      this.#history.upsertCall(
        item.itemId,
        { callId: item.callId, name: item.name, arguments: item.arguments, status: 'in_progress' },
        placement,
      );
      return;
    }
    const current = this.#history.get(item.itemId);
    const currentMessage = current?.type === 'message' ? current : undefined;
    this.#history.upsertMessage(
      item.itemId,
      {
        role: item.role,
        text: itemText(item) || (currentMessage?.text ?? ''),
        hasAudio: item.content.some((part) => part.type === 'audio'),
        status: item.status ?? currentMessage?.status ?? 'completed',
        interrupted: currentMessage?.interrupted ?? false,
      },
      placement,
    );
  }

  /** A response claimed `itemId` (its output): a held announcement enters the history or is dropped. */
  #claim(itemId: string, ephemeral: boolean, stopped: boolean, responseId?: string): void {
    if (responseId !== undefined) this.#responses.track(responseId).itemIds.add(itemId);
    const held = this.#unclaimed.claimed(itemId, ephemeral);
    if (held && !stopped) this.#apply(held);
  }

  itemDeleted(event: EventOf<'item_deleted'>): void {
    this.#removing(event.itemId);
    this.#history.remove(event.itemId);
  }

  itemTruncated(event: EventOf<'item_truncated'>): void {
    this.#history.updateMessage(event.itemId, { interrupted: true });
  }

  /** How an interrupted message ended for the listener: `skipped` ones leave the history. */
  /** How an interrupted message ended; `heard`: the audio the listener heard of what the app received. */
  messageOutcome(itemId: string, outcome: MessageOutcome, heard?: { ms: number; ofMs: number }): void {
    if (outcome === 'skipped') {
      this.#history.remove(itemId);
      return;
    }
    const item = this.#history.get(itemId);
    if (!heard || item?.type !== 'message') {
      this.#history.updateMessage(itemId, { interrupted: outcome === 'partial' });
      return;
    }
    this.#history.updateMessage(itemId, {
      interrupted: true,
      heardMs: heard.ms,
      heardText: heardPart(item.text, heard.ms / heard.ofMs),
    });
  }

  /** Whether the history holds text for message `itemId`. */
  hasText(itemId: string): boolean {
    const item = this.#history.get(itemId);
    return item?.type === 'message' && item.text.length > 0;
  }

  /** Marks every message of a conversation (not ephemeral) response as interrupted. */
  responseInterrupted(responseId: string): void {
    const response = this.#responses.get(responseId);
    if (response?.ephemeral !== false) return;
    for (const itemId of response.itemIds) this.#history.updateMessage(itemId, { interrupted: true });
  }
}

/**
 * The first `fraction` of `text` (the share of its audio the listener heard), cut back to the last whole word:
 * a transcript runs roughly in step with its audio, so this is the part that was heard.
 */
export function heardPart(text: string, fraction: number): string {
  if (!(fraction > 0)) return '';
  const cut = Math.round(text.length * Math.min(1, fraction));
  if (cut >= text.length) return text;
  if (/\s/.test(text.charAt(cut))) return text.slice(0, cut).trimEnd();
  const head = text.slice(0, cut);
  const boundary = head.search(/\s\S*$/);
  return boundary < 0 ? '' : head.slice(0, boundary).trimEnd();
}
