import { abortable } from './abort.js';

/** One server-sent event: its `event` name (default `message`) and its `data` lines joined by `\n`. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * An incremental `text/event-stream` parser following the WHATWG rules: lines end in CRLF, LF or CR
 * (also when split across chunks), `:` starts a comment, several `data:` lines join with `\n`, one space
 * after the colon is dropped, a blank line dispatches, and an event without data is not dispatched.
 */
export class ServerSentEventParser {
  #pending = '';
  #data: string[] = [];
  #event = '';
  #skipLineFeed = false;
  #started = false;

  /** Feeds decoded text; returns the events it completed. */
  feed(text: string): ServerSentEvent[] {
    const events: ServerSentEvent[] = [];
    if (text === '') return events;
    let start = 0;
    if (!this.#started) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) start = 1;
    }
    if (this.#skipLineFeed && text.charCodeAt(start) === 10) start++;
    this.#skipLineFeed = false;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.#line(this.#pending + text.slice(start, i), events);
      this.#pending = '';
      if (c === 13) {
        if (i + 1 === text.length) this.#skipLineFeed = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.#pending += text.slice(start);
    return events;
  }

  #line(line: string, events: ServerSentEvent[]): void {
    if (line === '') {
      if (this.#data.length > 0)
        events.push({ event: this.#event || 'message', data: this.#data.join('\n') });
      this.#data = [];
      this.#event = '';
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    // `id` and `retry` only matter for EventSource reconnection, which a POST stream does not do.
  }
}

/**
 * Reads server-sent events from a response body. Aborting `signal` rejects the pending read at once
 * with the signal's reason; leaving early (break, throw, abort) cancels the body.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new ServerSentEventParser();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await abortable(reader.read(), signal);
      if (done) {
        finished = true;
        yield* parser.feed(decoder.decode());
        return;
      }
      yield* parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    if (!finished) reader.cancel().catch(() => {});
  }
}
