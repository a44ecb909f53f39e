import { MESSAGE_ORDER_RESPONSES_LIMIT } from '../../../constants.js';
import type { RealtimeEvent } from '../../seam.js';

/** The provider events that carry one message's content. */
export type MessageContentEvent = Extract<
  RealtimeEvent,
  {
    type:
      | 'text_delta'
      | 'transcript_delta'
      | 'audio_delta'
      | 'audio_done'
      | 'transcript_done'
      | 'message_done';
  }
>;

/** What the session knows about one assistant message's audio. */
export interface OrderedMessage {
  readonly itemId: string;
  readonly responseId: string;
  /** Audio bytes the provider sent for it (including audio dropped after an interruption). */
  receivedBytes: number;
  /** Audio bytes handed to the app (and to the playback tracker). */
  passedBytes: number;
  /** `audio_done` arrived. */
  audioDone: boolean;
  /** `message_done` arrived. */
  messageDone: boolean;
}

interface ResponseMessages {
  readonly responseId: string;
  /** Message item ids in the order the provider started them. */
  readonly order: string[];
  /** Index in `order` of the message being delivered; those before it are done. */
  head: number;
  /** Content of later messages, held until the messages before them are done. */
  readonly held: Map<string, MessageContentEvent[]>;
}

/**
 * What {@link MessageOrder.admit} decided about one piece of content: `held` until the messages before it are
 * done (handed back by `next()` or `flush()`), or to be delivered now; `first_audio` is the first audio of its
 * message that reaches the app, and `last` ends its message being delivered (then `next()` hands back the
 * content of the following message that is now due).
 */
export type Admission = 'held' | 'now' | 'first_audio' | 'last';

/**
 * The messages of each response, delivered one at a time and in order: content (audio, transcript,
 * text) of a message is held until every message the provider started before it is done, so each
 * message's audio, transcript and playback stay its own even if a provider interleaves them. Also keeps
 * per message how much audio arrived and how much reached the app.
 */
export class MessageOrder {
  /** Created on first use: an idle session holds none. */
  #responses: Map<string, ResponseMessages> | undefined;
  /** Created on first use: an idle session holds none. */
  #messages: Map<string, OrderedMessage> | undefined;
  /** The response whose head message received content last: the common case, checked before any lookup. */
  #current: ResponseMessages | undefined;
  /** The message whose audio arrived last. */
  #lastAudio: OrderedMessage | undefined;
  /** Responses that handed audio to the app and may still need interrupting (see {@link stopWatching}). Created on first use. */
  #withAudio: Set<string> | undefined;

  /** `bytesPerMs`: of the session's output audio format (48 for PCM16 24 kHz, 8 for G.711). */
  constructor(readonly bytesPerMs = 48) {}

  /** Whole milliseconds of `bytes` of output audio. */
  durationMs(bytes: number): number {
    return Math.floor(bytes / this.bytesPerMs);
  }

  /** The provider started message `itemId` of `responseId` (also implied by its first audio). */
  messageStarted(responseId: string, itemId: string): OrderedMessage {
    const response = this.#response(responseId);
    if (!response.order.includes(itemId)) response.order.push(itemId);
    let message = this.#messages?.get(itemId);
    if (!message) {
      message = {
        itemId,
        responseId,
        receivedBytes: 0,
        passedBytes: 0,
        audioDone: false,
        messageDone: false,
      };
      this.#messages ??= new Map<string, OrderedMessage>();
      this.#messages.set(itemId, message);
    }
    return message;
  }

  /**
   * Decides whether `event` is delivered now (its message is the one being delivered, or it is not ordered) or
   * held until the messages before it are done. Audio delivered now is counted: received, and passed to the app
   * unless its response was `stopped`.
   */
  admit(event: MessageContentEvent, stopped: boolean): Admission {
    const current = this.#current;
    if (current !== undefined && current.head < current.order.length) {
      const itemId = current.order[current.head]!;
      if (event.itemId === itemId && event.responseId === current.responseId) {
        // The per-delta path: decided here without another call but the byte count.
        if (event.type !== 'audio_delta') return event.type === 'message_done' ? 'last' : 'now';
        return this.#audio(current.responseId, itemId, event.audio.byteLength, !stopped)
          ? 'first_audio'
          : 'now';
      }
    }
    const response = this.#responses?.get(event.responseId);
    const index = response ? response.order.indexOf(event.itemId) : -1;
    if (!response || index < 0 || index < response.head) return this.#admitted(event, stopped, false);
    if (index > response.head) {
      const held = response.held.get(event.itemId) ?? [];
      held.push(event);
      response.held.set(event.itemId, held);
      return 'held';
    }
    this.#current = response;
    return this.#admitted(event, stopped, true);
  }

  /**
   * The message being delivered of `responseId` ended (its content was admitted `last`): the next one is delivered
   * now; returns what was held of it, to be admitted again in this order.
   */
  next(responseId: string): readonly MessageContentEvent[] {
    const response = this.#responses?.get(responseId);
    if (!response || response.head >= response.order.length) return [];
    response.head++;
    const itemId = response.order[response.head];
    if (itemId === undefined) return [];
    const held = response.held.get(itemId);
    if (held === undefined) return [];
    response.held.delete(itemId);
    return held;
  }

  /** The response ended: returns whatever is still held, in message order, to be admitted again (in order). */
  flush(responseId: string): readonly MessageContentEvent[] {
    const response = this.#responses?.get(responseId);
    if (!response) return [];
    response.head = response.order.length;
    if (response.held.size === 0) return [];
    const due: MessageContentEvent[] = [];
    for (const itemId of response.order) {
      const held = response.held.get(itemId);
      response.held.delete(itemId);
      if (held !== undefined) due.push(...held);
    }
    return due;
  }

  #admitted(event: MessageContentEvent, stopped: boolean, ordered: boolean): Admission {
    if (event.type === 'audio_delta') {
      return this.#audio(event.responseId, event.itemId, event.audio.byteLength, !stopped)
        ? 'first_audio'
        : 'now';
    }
    return ordered && event.type === 'message_done' ? 'last' : 'now';
  }

  /** Counts a message's audio; `true` when it is the first audio of the message that passes to the app. */
  #audio(responseId: string, itemId: string, bytes: number, passed: boolean): boolean {
    // A known message of this response is already in its order (forgetting a response forgets its messages).
    const last = this.#lastAudio;
    const known = last !== undefined && last.itemId === itemId ? last : this.#messages?.get(itemId);
    const message = known?.responseId === responseId ? known : this.messageStarted(responseId, itemId);
    this.#lastAudio = message;
    message.receivedBytes += bytes;
    if (!passed) return false;
    const first = message.passedBytes === 0;
    message.passedBytes += bytes;
    if (first) {
      this.#withAudio ??= new Set<string>();
      this.#withAudio.add(responseId);
    }
    return first;
  }

  audioDone(itemId: string): void {
    const message = this.#messages?.get(itemId);
    if (message) message.audioDone = true;
  }

  messageDone(itemId: string): void {
    const message = this.#messages?.get(itemId);
    if (message) message.messageDone = true;
  }

  /** The messages of a response, in order. */
  messagesOf(responseId: string): readonly OrderedMessage[] {
    const order = this.#responses?.get(responseId)?.order;
    const messages: OrderedMessage[] = [];
    if (order === undefined) return messages;
    for (const itemId of order) {
      const message = this.#messages?.get(itemId);
      if (message !== undefined) messages.push(message);
    }
    return messages;
  }

  /** Responses that handed audio to the app, oldest first, except those no interruption needs to look at again. */
  responsesWithAudio(): string[] {
    const withAudio = this.#withAudio;
    if (withAudio === undefined || withAudio.size === 0) return [];
    if (withAudio.size === 1) {
      // The usual case (the response being heard): no pass over every remembered response.
      const [only] = withAudio;
      return only !== undefined && this.#responses?.has(only) ? [only] : [];
    }
    return [...(this.#responses?.keys() ?? [])].filter((id) => withAudio.has(id));
  }

  /** No interruption needs to look at the response again: it was stopped, or it is over and was heard in full. */
  stopWatching(responseId: string): void {
    this.#withAudio?.delete(responseId);
  }

  /** Forgets everything (the connection is gone). */
  reset(): void {
    this.#responses?.clear();
    this.#messages?.clear();
    this.#current = undefined;
    this.#lastAudio = undefined;
    this.#withAudio?.clear();
  }

  #response(responseId: string): ResponseMessages {
    let response = this.#responses?.get(responseId);
    if (!response) {
      response = { responseId, order: [], head: 0, held: new Map() };
      this.#responses ??= new Map<string, ResponseMessages>();
      this.#responses.set(responseId, response);
      if ((this.#responses?.size ?? 0) > MESSAGE_ORDER_RESPONSES_LIMIT) this.#forgetOldest();
    }
    return response;
  }

  #forgetOldest(): void {
    if (!this.#responses) return;
    const [oldest, response] = this.#responses.entries().next().value as [string, ResponseMessages];
    this.#responses?.delete(oldest);
    this.#withAudio?.delete(oldest);
    for (const itemId of response.order) this.#messages?.delete(itemId);
    if (this.#current === response) this.#current = undefined;
    this.#lastAudio = undefined;
  }
}
