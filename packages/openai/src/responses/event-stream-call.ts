import type { ModelStreamEvent, ParleyError } from '@parley/core';
import { redactError } from '../shared/redact.js';
import { OpenAIConnectionError } from './errors.js';
import { readServerSentEvents, type ServerSentEvent } from './sse.js';
import type { StreamStep } from './stream-events.js';
import type { ResponsesTransport } from './transport.js';

/** How {@link streamCall} reads one kind of event stream. */
export interface EventStreamReader {
  /** What one server-sent event means (one step or several); throwing ends the stream with that error. */
  step(event: ServerSentEvent, requestId: string | undefined): StreamStep | readonly StreamStep[];
  /** At the end of the body without a `done` step: the final event, if the stream may end that way. */
  atEnd?(requestId: string | undefined): ModelStreamEvent | undefined;
}

/**
 * POSTs `body` with `stream: true` and yields the model events `reader` makes of the server-sent events, until its
 * `done` step. Only the request before the first event is retried (by the transport); a body that breaks or ends
 * early is an `OpenAIConnectionError` `stream_interrupted`; an abort ends it with the signal's reason. The body is
 * released on every path.
 */
export async function* streamCall(
  transport: ResponsesTransport,
  body: Record<string, unknown>,
  signal: AbortSignal | undefined,
  reader: EventStreamReader,
): AsyncGenerator<ModelStreamEvent> {
  const opened = await transport.post(
    { ...body, stream: true },
    { signal, stream: true, read: async (response) => response },
  );
  const { value: response, requestId } = opened;
  const events = response.body ? readServerSentEvents(response.body, opened.signal) : undefined;
  try {
    if (!events) {
      throw new OpenAIConnectionError(
        'stream_interrupted',
        'The OpenAI API answered a stream request without a body.',
        { requestId },
      );
    }
    for (;;) {
      let next: IteratorResult<ServerSentEvent>;
      try {
        next = await events.next();
      } catch (error) {
        if (opened.signal.aborted) throw opened.signal.reason;
        throw interrupted(error, requestId);
      }
      if (next.done) {
        const last = reader.atEnd?.(requestId);
        if (!last) throw interrupted(undefined, requestId);
        yield last;
        return;
      }
      const steps = reader.step(next.value, requestId);
      for (const step of Array.isArray(steps) ? steps : [steps]) {
        if (step.kind === 'skip') continue;
        yield step.event;
        if (step.kind === 'done') return;
      }
    }
  } catch (error) {
    if (opened.signal.aborted && error === opened.signal.reason) throw error;
    throw redactError(error, [opened.apiKey]);
  } finally {
    opened.dispose();
    await events?.return(undefined);
    // A body whose reader was never taken (no event read yet) is released here.
    if (response.body && !response.body.locked) response.body.cancel().catch(() => {});
  }
}

function interrupted(cause: unknown, requestId: string | undefined): ParleyError {
  const detail = cause instanceof Error ? `: ${cause.message}` : ' before its final event';
  return new OpenAIConnectionError('stream_interrupted', `The OpenAI response stream ended${detail}.`, {
    cause,
    requestId,
  });
}
