import type { ModelResponse, ModelStreamEvent } from '@parley/core';
import { isRecord, optionalString } from '../responses/json.js';
import type { ServerSentEvent } from '../responses/sse.js';
import type { StreamStep } from '../responses/stream-events.js';
import { bodyError, invalidChatResponse, messageItems, toChatUsage } from './response-mapping.js';

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Reads a Chat Completions stream (`chat.completion.chunk` events, then `data: [DONE]`): the first chunk is
 * `response_started`, each `delta.content` a `text_delta`, tool calls are put together from their pieces by
 * `index`, and `[DONE]` is `response_done` with the whole response (usage from the last chunk, which OpenAI sends
 * with `stream_options.include_usage`). A server that closes the body after a `finish_reason` without `[DONE]` is
 * accepted; one that closes it earlier is an interrupted stream. An `error` chunk rejects.
 */
export class ChatStreamAccumulator {
  #id: string | undefined;
  #started = false;
  #finished = false;
  #text = '';
  #usage: unknown;
  readonly #calls = new Map<number, PendingCall>();

  step(event: ServerSentEvent, requestId: string | undefined): StreamStep[] {
    if (event.data === '[DONE]') return [{ kind: 'done', event: this.#done(requestId) }];
    let chunk: unknown;
    try {
      chunk = JSON.parse(event.data);
    } catch {
      throw invalidChatResponse('a stream chunk is not JSON', requestId);
    }
    if (!isRecord(chunk)) throw invalidChatResponse('a stream chunk is not an object', requestId);
    const failed = bodyError(chunk, requestId);
    if (failed) throw failed;
    this.#id ??= optionalString(chunk.id);
    if (chunk.usage !== undefined && chunk.usage !== null) this.#usage = chunk.usage;
    const events: ModelStreamEvent[] = [];
    if (!this.#started) {
      this.#started = true;
      events.push(
        this.#id ? { type: 'response_started', responseId: this.#id } : { type: 'response_started' },
      );
    }
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    const delta = isRecord(choice) && isRecord(choice.delta) ? choice.delta : {};
    if (isRecord(choice) && optionalString(choice.finish_reason)) this.#finished = true;
    const text = optionalString(delta.content) ?? optionalString(delta.refusal);
    if (text) {
      this.#text += text;
      events.push({ type: 'text_delta', delta: text });
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const piece of delta.tool_calls) this.#addCallPiece(piece, requestId);
    }
    if (events.length === 0) return [{ kind: 'emit', event: { type: 'raw', event: chunk } }];
    return events.map((event) => ({ kind: 'emit', event }));
  }

  /** At the end of the body: the final event when the server had finished its answer, else nothing. */
  atEnd(requestId: string | undefined): ModelStreamEvent | undefined {
    return this.#finished ? this.#done(requestId) : undefined;
  }

  #addCallPiece(piece: unknown, requestId: string | undefined): void {
    if (!isRecord(piece)) return;
    const index = typeof piece.index === 'number' ? piece.index : this.#calls.size;
    const fn = isRecord(piece.function) ? piece.function : {};
    let call = this.#calls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.#calls.set(index, call);
    }
    call.id ||= optionalString(piece.id) ?? '';
    call.name ||= optionalString(fn.name) ?? '';
    if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
    else if (isRecord(fn.arguments)) call.arguments += JSON.stringify(fn.arguments);
    if (!call.id && !call.name && !call.arguments) {
      throw invalidChatResponse('a streamed tool call has neither id, name nor arguments', requestId);
    }
  }

  #done(requestId: string | undefined): ModelStreamEvent {
    const calls = [...this.#calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    for (const call of calls) {
      if (!call.id || !call.name)
        throw invalidChatResponse('a streamed tool call lacks its id or name', requestId);
    }
    const response: ModelResponse = {
      output: messageItems(this.#text, calls),
      usage: toChatUsage(this.#usage),
      raw: { id: this.#id, usage: this.#usage },
    };
    if (this.#id) response.responseId = this.#id;
    return { type: 'response_done', response };
  }
}
