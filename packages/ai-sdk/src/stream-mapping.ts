import type { LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import type { ModelStreamEvent } from '@parley/core';
import type { ContentPart } from './response-mapping.js';

/** What one stream part means for the caller. */
export type StreamStep =
  | { kind: 'emit'; events: ModelStreamEvent[] }
  /** An `error` part: the stream failed with this value. */
  | { kind: 'error'; error: unknown };

/**
 * Folds the parts of an AI SDK stream into Parley stream events and the content of the final response:
 * `text-delta` → `text_delta` (the text kept per part id, in the order the parts started), `tool-call` → a function
 * call of the final response, `finish` → its usage, `response-metadata` → its id. Every other part (reasoning, tool
 * input deltas, warnings, sources, files, raw chunks) is passed through as a `raw` event. `response_started` comes
 * first, with the response id when the provider's metadata part follows `stream-start`.
 */
export class StreamFolder {
  readonly content: ContentPart[] = [];
  usage: LanguageModelV3Usage | undefined;
  responseId: string | undefined;
  finished = false;
  #started = false;
  #held: ModelStreamEvent | undefined;
  readonly #texts = new Map<string, { type: 'text'; text: string }>();

  step(part: LanguageModelV3StreamPart): StreamStep {
    if (part.type === 'error') return { kind: 'error', error: part.error };
    if (part.type === 'response-metadata' && part.id && !this.responseId) this.responseId = part.id;
    if (!this.#started && part.type === 'stream-start') {
      // Held until the next part, which may be the response's metadata with its id.
      this.#held = { type: 'raw', event: part };
      return { kind: 'emit', events: [] };
    }
    const events: ModelStreamEvent[] = [];
    if (!this.#started) {
      this.#started = true;
      events.push(
        this.responseId
          ? { type: 'response_started', responseId: this.responseId }
          : { type: 'response_started' },
      );
      if (this.#held) events.push(this.#held);
      this.#held = undefined;
    }
    switch (part.type) {
      case 'text-start':
        this.#text(part.id);
        break;
      case 'text-delta':
        this.#text(part.id).text += part.delta;
        events.push({ type: 'text_delta', delta: part.delta });
        break;
      case 'text-end':
        break;
      case 'tool-call':
        this.content.push(part);
        break;
      case 'finish':
        this.usage = part.usage;
        this.finished = true;
        break;
      case 'response-metadata':
        break;
      default:
        events.push({ type: 'raw', event: part });
    }
    return { kind: 'emit', events };
  }

  #text(id: string): { type: 'text'; text: string } {
    let part = this.#texts.get(id);
    if (!part) {
      part = { type: 'text', text: '' };
      this.#texts.set(id, part);
      this.content.push(part);
    }
    return part;
  }
}
