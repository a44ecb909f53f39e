import { type ContextAppendKind, isDtmfDigit, type RealtimeEvent } from '@parley/core';
import { decodeBase64 } from '../shared/base64.js';
import { isPlainObject, type JsonObject, stringField } from '../shared/deep-merge.js';
import type { LiveServerEvent } from '../shared/live-wire-events.js';
import type { BackendRelay } from './backend-relay.js';
import type { InputTurns } from './input-turns.js';
import type { OutputSegmenter } from './output-segmenter.js';

const SEAM_KIND: Record<string, ContextAppendKind> = {
  'session.instructions.appended': 'instruction',
  'session.thinking.appended': 'thought',
  'session.commentary.appended': 'commentary',
};
const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** What the reader hands to its connection besides seam events: the session's lifecycle on the wire. */
export interface LiveServerEventHooks {
  emit(event: RealtimeEvent): void;
  /** `session.started`: the session resource. */
  started(session: JsonObject): void;
  /** `session.updated`: the session resource (it restates the limit). */
  updated(session: JsonObject): void;
  /** `session.closed`, with its reason. */
  closed(reason: string): void;
  /** An `error` event: its code, message and the client event it answers. */
  failed(error: { code: string; message: string; clientEventId: string | undefined }): void;
  /** A context append was acknowledged (its client event id). */
  acknowledged(clientEventId: string): void;
}

/** The parts of the session a GPT-Live server event feeds. */
export interface LiveServerEventParts {
  segmenter: OutputSegmenter;
  turns: InputTurns;
  backend: BackendRelay;
}

/**
 * The GPT-Live half of the codec that reads: server events → seam events. Every case label is a type of the wire
 * catalogue (`LiveServerEvent`, the compiler checks); events it does not model are ignored.
 */
export class LiveServerEvents {
  readonly #hooks: LiveServerEventHooks;
  readonly #parts: LiveServerEventParts;

  constructor(hooks: LiveServerEventHooks, parts: LiveServerEventParts) {
    this.#hooks = hooks;
    this.#parts = parts;
  }

  /** One text frame; a frame that is not a JSON event with a string `type` is ignored. */
  frame(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    if (isPlainObject(parsed) && typeof parsed.type === 'string')
      this.handle(parsed as JsonObject & { type: string });
  }

  handle(event: JsonObject & { type: string }): void {
    const { segmenter, turns, backend } = this.#parts;
    const type = event.type as LiveServerEvent['type'];
    switch (type) {
      case 'session.output_audio.delta': {
        const delta = stringField(event.delta);
        if (delta) segmenter.audio(decodeBase64(delta));
        return;
      }
      case 'session.output_transcript.delta':
        segmenter.transcript(
          stringField(event.delta) ?? '',
          typeof event.start_ms === 'number' ? event.start_ms : undefined,
        );
        return;
      case 'session.input_transcript.delta':
        turns.fragment(stringField(event.delta) ?? '', num(event.start_ms), num(event.end_ms));
        return;
      case 'session.started':
        this.#hooks.started(isPlainObject(event.session) ? event.session : {});
        return;
      case 'session.delegation.created':
        this.#delegationCreated(event);
        return;
      case 'session.instructions.appended':
      case 'session.thinking.appended':
      case 'session.commentary.appended':
        this.#appended(type, event);
        return;
      case 'response.event':
        backend.event(event);
        return;
      case 'session.usage.updated':
        this.#usage(event);
        return;
      case 'transport.dtmf.received': {
        const digit = stringField(event.event);
        if (digit !== undefined && isDtmfDigit(digit)) this.#hooks.emit({ type: 'dtmf_received', digit });
        return;
      }
      case 'transport.dtmf.sent':
      case 'transport.dtmf.send': {
        const id = stringField(event.client_event_id);
        if (id !== undefined) this.#hooks.acknowledged(id);
        return;
      }
      case 'session.updated':
        this.#hooks.updated(isPlainObject(event.session) ? event.session : {});
        return;
      case 'session.closed':
        this.#hooks.closed(stringField(event.reason) ?? 'close_requested');
        return;
      case 'error': {
        const error = isPlainObject(event.error) ? event.error : {};
        this.#hooks.failed({
          code: stringField(error.code) ?? 'unknown_error',
          message: stringField(error.message) ?? 'GPT-Live reported an error.',
          clientEventId: stringField(event.client_event_id) ?? stringField(error.client_event_id),
        });
        return;
      }
      default:
        return;
    }
  }

  #delegationCreated(event: JsonObject): void {
    const delegation = isPlainObject(event.delegation) ? event.delegation : {};
    const offsetMs = num(event.offset_ms);
    // The request is what was said up to the offset: later words arrive after the delegation, as a new turn.
    const laterWords = this.#parts.turns.finishAt(offsetMs);
    this.#hooks.emit({
      type: 'delegation_requested',
      delegationId: stringField(delegation.id) ?? '',
      offsetMs,
      target: delegation.target === 'client' ? 'app' : 'provider',
    });
    laterWords();
  }

  #appended(type: `session.${'instructions' | 'thinking' | 'commentary'}.appended`, event: JsonObject): void {
    const id = stringField(event.client_event_id);
    if (id !== undefined) this.#hooks.acknowledged(id);
    this.#hooks.emit({
      type: 'context_appended',
      kind: SEAM_KIND[type] as ContextAppendKind,
      startMs: num(event.start_ms),
      endMs: num(event.end_ms),
      ...(id !== undefined && { clientRequestId: id }),
    });
  }

  #usage(event: JsonObject): void {
    const usage = isPlainObject(event.usage) ? event.usage : {};
    const window = isPlainObject(event.context_window) ? event.context_window : undefined;
    this.#hooks.emit({
      type: 'usage_updated',
      audioSeconds: num(usage.seconds),
      ...(window && { contextWindowRatio: num(window.usage_ratio) }),
    });
  }
}
