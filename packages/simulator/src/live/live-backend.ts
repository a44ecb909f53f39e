import type {
  LiveBackendInputItem,
  LiveBackendItem,
  LiveBackendResponse,
  LiveBackendStreamEvent,
} from '@parley/openai/wire';
import type { IdGenerator } from '../shared/ids.js';
import { SimulatorServiceError } from '../shared/sim-errors.js';
import type { LiveReaction, LiveToolOutput } from './live-brain.js';
import { estimateTokens } from './live-config.js';

/** Per-session budget of what the client may add to the backend's input. */
export const BACKEND_ITEM_LIMIT = 128;
export const BACKEND_BYTE_LIMIT = 32_768;

type Delegate = Extract<LiveReaction, { type: 'delegate' }>;

interface PendingDelegation {
  id: string;
  calls: Map<string, { name: string; output?: string }>;
  /** The backend response finished and waits for every call's output. */
  awaiting: boolean;
  answer: (outputs: readonly LiveToolOutput[]) => string;
}

const joinOutputs = (outputs: readonly LiveToolOutput[]) => outputs.map((o) => o.output).join(' ');

/**
 * The simulated hosted Responses backend of a GPT-Live session: streams function calls inside `response.event`
 * envelopes keyed by delegation, holds the tool-result barrier (exactly one `response.create` once every call has an
 * output), and the per-session input budget.
 */
export class ResponsesBackend {
  readonly #ids: IdGenerator;
  readonly #emit: (
    event: LiveBackendStreamEvent,
    delegationId: string | null,
    clientEventId?: string,
  ) => void;
  readonly #say: (text: string) => void;
  readonly #delegations = new Map<string, PendingDelegation>();
  #items = 0;
  #bytes = 0;
  #userText: string[] = [];

  constructor(deps: {
    ids: IdGenerator;
    emit: (event: LiveBackendStreamEvent, delegationId: string | null, clientEventId?: string) => void;
    say: (text: string) => void;
  }) {
    this.#ids = deps.ids;
    this.#emit = deps.emit;
    this.#say = deps.say;
  }

  /** Budget used so far. */
  get used(): { items: number; bytes: number } {
    return { items: this.#items, bytes: this.#bytes };
  }

  /** A delegation the voice model just made: returns its first response id, then streams the backend's work. */
  begin(delegationId: string, reaction: Delegate): { responseId: string; run: () => void } {
    const responseId = this.#ids.next('resp');
    const pending: PendingDelegation = {
      id: delegationId,
      calls: new Map(),
      awaiting: false,
      answer: reaction.answer ?? joinOutputs,
    };
    return {
      responseId,
      run: () => {
        const emit = (event: LiveBackendStreamEvent) => this.#emit(event, delegationId);
        emit({ type: 'response.created', response: snapshot(responseId, 'in_progress') });
        emit({ type: 'response.in_progress', response: snapshot(responseId, 'in_progress') });
        let index = 0;
        for (const hosted of reaction.hosted ?? []) {
          const item: LiveBackendItem = { type: hosted, id: this.#ids.next('item'), status: 'completed' };
          emit({ type: 'response.output_item.added', output_index: index, item });
          emit({ type: 'response.output_item.done', output_index: index, item });
          index++;
        }
        const calls = reaction.calls ?? [];
        for (const call of calls) {
          const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
          const callId = this.#ids.next('call');
          const itemId = this.#ids.next('fc');
          const base = { type: 'function_call', id: itemId, call_id: callId, name: call.name } as const;
          emit({
            type: 'response.output_item.added',
            output_index: index,
            item: { ...base, arguments: '', status: 'in_progress' },
          });
          emit({
            type: 'response.function_call_arguments.delta',
            item_id: itemId,
            output_index: index,
            delta: args,
          });
          emit({
            type: 'response.function_call_arguments.done',
            item_id: itemId,
            output_index: index,
            name: call.name,
            arguments: args,
          });
          emit({
            type: 'response.output_item.done',
            output_index: index,
            item: { ...base, arguments: args, status: 'completed' },
          });
          pending.calls.set(callId, { name: call.name });
          index++;
        }
        if (calls.length === 0) {
          this.#answer(responseId, delegationId, pending.answer([]), index);
          return;
        }
        emit({ type: 'response.completed', response: snapshot(responseId, 'completed', 40) });
        pending.awaiting = true;
        this.#delegations.set(delegationId, pending);
      },
    };
  }

  /** `response.item.create`: no ack; refused when the session's input budget would overflow. */
  addItem(item: LiveBackendInputItem): void {
    const bytes = Buffer.byteLength(JSON.stringify(item), 'utf8');
    if (this.#items + 1 > BACKEND_ITEM_LIMIT || this.#bytes + bytes > BACKEND_BYTE_LIMIT) {
      throw new SimulatorServiceError(
        'response_input_buffer_full',
        `Backend input is limited to ${BACKEND_ITEM_LIMIT} items and ${BACKEND_BYTE_LIMIT} UTF-8 bytes per session.`,
      );
    }
    this.#items++;
    this.#bytes += bytes;
    if (item.type === 'function_call_output' && typeof item.call_id === 'string') {
      for (const delegation of this.#delegations.values()) {
        const call = delegation.calls.get(item.call_id);
        if (call && call.output === undefined) call.output = String(item.output);
      }
    } else if (item.type === 'message' && typeof item.content === 'string') {
      this.#userText.push(item.content);
    } else if (item.type === 'message' && Array.isArray(item.content)) {
      for (const part of item.content) if (typeof part.text === 'string') this.#userText.push(part.text);
    }
  }

  /**
   * `response.create`: continues every delegation whose calls all have outputs; refused with
   * `function_call_outputs_required` while any awaited call lacks one. With nothing awaiting, the backend answers the
   * typed user input on its own (no delegation).
   */
  create(clientEventId: string | undefined): void {
    const awaiting = [...this.#delegations.values()].filter((d) => d.awaiting);
    const missing = awaiting.flatMap((d) =>
      [...d.calls].filter(([, c]) => c.output === undefined).map(([id]) => id),
    );
    if (missing.length > 0) {
      throw new SimulatorServiceError(
        'function_call_outputs_required',
        `Every function call needs an output before response.create (missing: ${missing.join(', ')}).`,
      );
    }
    if (awaiting.length === 0) {
      const text = this.#userText.splice(0).join(' ');
      this.#answer(this.#ids.next('resp'), null, text ? `About "${text}": done.` : 'Done.', 0, clientEventId);
      return;
    }
    for (const delegation of awaiting) {
      this.#delegations.delete(delegation.id);
      const outputs = [...delegation.calls].map(([callId, c]) => ({
        callId,
        name: c.name,
        output: c.output ?? '',
      }));
      this.#answer(this.#ids.next('resp'), delegation.id, delegation.answer(outputs), 0, clientEventId);
    }
  }

  #answer(
    responseId: string,
    delegationId: string | null,
    text: string,
    index: number,
    clientEventId?: string,
  ) {
    const emit = (event: LiveBackendStreamEvent, echo?: string) => this.#emit(event, delegationId, echo);
    const itemId = this.#ids.next('msg');
    if (index === 0) {
      emit({ type: 'response.created', response: snapshot(responseId, 'in_progress') }, clientEventId);
      emit({ type: 'response.in_progress', response: snapshot(responseId, 'in_progress') });
    }
    const message = (status: 'in_progress' | 'completed', body: string): LiveBackendItem => ({
      type: 'message',
      id: itemId,
      role: 'assistant',
      status,
      content: body ? [{ type: 'output_text', text: body, annotations: [] }] : [],
    });
    emit({ type: 'response.output_item.added', output_index: index, item: message('in_progress', '') });
    emit({
      type: 'response.output_text.delta',
      item_id: itemId,
      output_index: index,
      content_index: 0,
      delta: text,
    });
    emit({ type: 'response.output_text.done', item_id: itemId, output_index: index, content_index: 0, text });
    emit({ type: 'response.output_item.done', output_index: index, item: message('completed', text) });
    emit({ type: 'response.completed', response: snapshot(responseId, 'completed', estimateTokens(text)) });
    this.#say(text);
  }
}

function snapshot(
  id: string,
  status: LiveBackendResponse['status'],
  outputTokens?: number,
): LiveBackendResponse {
  return {
    id,
    object: 'response',
    status,
    output: [],
    instructions: null,
    tools: [],
    usage:
      outputTokens === undefined
        ? null
        : { input_tokens: 200, output_tokens: outputTokens, total_tokens: 200 + outputTokens },
  };
}
