import type { ModelStreamEvent } from '@parley/core';
import { OpenAIAPIError, OpenAIResponseFailedError } from './errors.js';
import { isRecord, optionalString } from './json.js';
import { fromResponsesResponse, responseFailedError } from './response-mapping.js';
import type { ServerSentEvent } from './sse.js';

/** What one Responses stream event means for the caller. */
export type StreamStep =
  | { kind: 'emit'; event: ModelStreamEvent }
  /** The final event: emit it and stop reading. */
  | { kind: 'done'; event: ModelStreamEvent }
  | { kind: 'skip' };

/**
 * Maps one server-sent event of a Responses stream: `response.created` → `response_started`,
 * `response.output_text.delta` → `text_delta`, `response.completed` / `response.incomplete` →
 * `response_done`, `response.failed` / `error` → a thrown {@link OpenAIResponseFailedError}, and every
 * other event → `raw`.
 */
export function mapStreamEvent(sse: ServerSentEvent, requestId: string | undefined): StreamStep {
  if (sse.data === '[DONE]') return { kind: 'skip' };
  let event: unknown;
  try {
    event = JSON.parse(sse.data);
  } catch {
    throw new OpenAIAPIError(
      'invalid_response',
      `The OpenAI API sent a stream event that is not JSON (event "${sse.event}").`,
      { status: 200, requestId },
    );
  }
  if (!isRecord(event)) return { kind: 'emit', event: { type: 'raw', event } };
  const type = optionalString(event.type) ?? sse.event;
  switch (type) {
    case 'response.created': {
      const response = isRecord(event.response) ? event.response : {};
      const responseId = optionalString(response.id);
      return {
        kind: 'emit',
        event: responseId ? { type: 'response_started', responseId } : { type: 'response_started' },
      };
    }
    case 'response.output_text.delta':
      return typeof event.delta === 'string'
        ? { kind: 'emit', event: { type: 'text_delta', delta: event.delta } }
        : { kind: 'emit', event: { type: 'raw', event } };
    case 'response.completed':
    case 'response.incomplete':
      return {
        kind: 'done',
        event: { type: 'response_done', response: fromResponsesResponse(event.response, requestId) },
      };
    case 'response.failed':
      throw responseFailedError(event.response, requestId);
    case 'error': {
      const code = optionalString(event.code) ?? 'stream_error';
      const detail = optionalString(event.message) ?? 'no error message';
      const suffix = requestId ? ` (request id ${requestId})` : '';
      throw new OpenAIResponseFailedError(code, `OpenAI stream error (${code}): ${detail}${suffix}`, {
        requestId,
        param: optionalString(event.param),
      });
    }
    default:
      return { kind: 'emit', event: { type: 'raw', event } };
  }
}
