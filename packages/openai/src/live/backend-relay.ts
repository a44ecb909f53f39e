import type { RealtimeEvent, RealtimeResponseStatus } from '@parley/core';
import { BACKEND_BYTE_LIMIT, BACKEND_ITEM_LIMIT } from '../constants.js';
import { isPlainObject, stringField } from '../shared/deep-merge.js';

const STATUS: Record<string, RealtimeResponseStatus> = {
  'response.completed': 'completed',
  'response.failed': 'failed',
  'response.incomplete': 'incomplete',
  'response.cancelled': 'cancelled',
};

interface BackendResponse {
  /** Calls still without an output. */
  pending: Set<string>;
  completed: boolean;
}

/**
 * Responses delegation on the seam: the backend's streamed responses become `response_started` / `function_call` /
 * `response_done` (so the session's tool executor runs the calls), tool outputs become `response.item.create` within
 * the per-session budget, and the relay itself sends exactly one `response.create` once every backend response with
 * calls has completed and every call has its output (the service refuses an earlier one with
 * `function_call_outputs_required`). The voice's own speech never holds it back.
 */
export class BackendRelay {
  readonly #emit: (event: RealtimeEvent) => void;
  /** The backend response each delegation is on (function call items do not name it). */
  readonly #responseOf = new Map<string, string>();
  readonly #seenCalls = new Set<string>();
  readonly #continue: () => void;
  /** Backend responses with calls, until they are continued. */
  readonly #withCalls = new Map<string, BackendResponse>();
  #items = 0;
  #bytes = 0;

  constructor(emit: (event: RealtimeEvent) => void, continueResponses: () => void) {
    this.#emit = emit;
    this.#continue = continueResponses;
  }

  /** Budget used so far. */
  get used(): { items: number; bytes: number } {
    return { items: this.#items, bytes: this.#bytes };
  }

  /** A `response.event` envelope. */
  event(envelope: Record<string, unknown>): void {
    const nested = envelope.event;
    if (!isPlainObject(nested)) return;
    const delegationId = stringField(envelope.delegation_id) ?? '';
    const type = stringField(nested.type);
    const response = isPlainObject(nested.response) ? nested.response : undefined;
    if (type === 'response.created' && response) {
      const responseId = stringField(response.id) ?? '';
      this.#responseOf.set(delegationId, responseId);
      this.#emit({ type: 'response_started', responseId, ephemeral: false });
      return;
    }
    if (type === 'response.output_item.done' && isPlainObject(nested.item)) {
      const item = nested.item;
      const callId = stringField(item.call_id);
      if (
        item.type !== 'function_call' ||
        item.status !== 'completed' ||
        !callId ||
        this.#seenCalls.has(callId)
      )
        return;
      this.#seenCalls.add(callId);
      const responseId = this.#responseOf.get(delegationId) ?? '';
      const entry = this.#withCalls.get(responseId) ?? { pending: new Set<string>(), completed: false };
      entry.pending.add(callId);
      this.#withCalls.set(responseId, entry);
      this.#emit({
        type: 'function_call',
        responseId,
        itemId: stringField(item.id) ?? callId,
        callId,
        name: stringField(item.name) ?? '',
        arguments: stringField(item.arguments) ?? '',
      });
      return;
    }
    const status = type === undefined ? undefined : STATUS[type];
    if (status && response) {
      const responseId = stringField(response.id) ?? this.#responseOf.get(delegationId) ?? '';
      const usage = isPlainObject(response.usage) ? response.usage : undefined;
      const entry = this.#withCalls.get(responseId);
      if (entry && status === 'completed') entry.completed = true;
      else if (entry) this.#withCalls.delete(responseId);
      this.#emit({
        type: 'response_done',
        responseId,
        status,
        ephemeral: false,
        ...(usage && {
          usage: {
            inputTokens: Number(usage.input_tokens) || 0,
            outputTokens: Number(usage.output_tokens) || 0,
            totalTokens: Number(usage.total_tokens) || 0,
          },
        }),
      });
      if (entry) this.#maybeContinue();
    }
  }

  /** The wire item of a tool output, or why it cannot be sent (the budget would overflow). */
  toolOutput(callId: string, output: string): { item: Record<string, unknown> } | { refused: string } {
    const item = { type: 'function_call_output', call_id: callId, output };
    const bytes = new TextEncoder().encode(JSON.stringify(item)).length;
    if (this.#items + 1 > BACKEND_ITEM_LIMIT || this.#bytes + bytes > BACKEND_BYTE_LIMIT) {
      return {
        refused:
          `The output of call ${callId} (${bytes} bytes) does not fit the backend input budget ` +
          `(${BACKEND_ITEM_LIMIT} items / ${BACKEND_BYTE_LIMIT} UTF-8 bytes per session; ${this.#items} items and ` +
          `${this.#bytes} bytes used). Return shorter tool outputs.`,
      };
    }
    this.#items++;
    this.#bytes += bytes;
    return { item };
  }

  /** The output of `callId` went out: the last one of a completed backend response continues it. */
  outputSent(callId: string): void {
    for (const entry of this.#withCalls.values()) entry.pending.delete(callId);
    this.#maybeContinue();
  }

  #maybeContinue(): void {
    if (this.#withCalls.size === 0) return;
    for (const entry of this.#withCalls.values()) if (!entry.completed || entry.pending.size > 0) return;
    this.#withCalls.clear();
    this.#continue();
  }
}
