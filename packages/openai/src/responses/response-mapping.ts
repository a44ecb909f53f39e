import type { ConversationItem, ModelResponse } from '@parley/core';
import { OpenAIAPIError, OpenAIResponseFailedError } from './errors.js';
import { fromResponsesHostedItem } from './hosted-items.js';
import { isRecord, numberOrZero, optionalString } from './json.js';

function invalid(what: string, requestId: string | undefined): OpenAIAPIError {
  const suffix = requestId ? ` (request id ${requestId})` : '';
  return new OpenAIAPIError(
    'invalid_response',
    `The OpenAI API sent an unexpected response: ${what}.${suffix}`,
    {
      status: 200,
      requestId,
    },
  );
}

/** The text of a message output item: its `output_text` parts (and any `refusal`), in order. */
function messageText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (part.type === 'output_text' && typeof part.text === 'string') text += part.text;
    else if (part.type === 'refusal' && typeof part.refusal === 'string') text += part.refusal;
  }
  return text;
}

function toItem(item: unknown, requestId: string | undefined): ConversationItem | undefined {
  if (!isRecord(item)) throw invalid('an output item is not an object', requestId);
  const id = optionalString(item.id);
  if (item.type === 'message') {
    const message: ConversationItem = {
      type: 'message',
      role: 'assistant',
      content: messageText(item.content),
    };
    if (id) message.id = id;
    return message;
  }
  if (item.type === 'function_call') {
    const callId = optionalString(item.call_id);
    const name = optionalString(item.name);
    if (!callId || !name || typeof item.arguments !== 'string') {
      throw invalid('a function_call item lacks call_id, name or arguments', requestId);
    }
    const call: ConversationItem = { type: 'function_call', callId, name, arguments: item.arguments };
    if (id) call.id = id;
    return call;
  }
  // Reasoning and future item types are not part of the conversation model; they stay available in `raw`.
  return fromResponsesHostedItem(item);
}

/** The error of a response whose `status` is `failed`. */
export function responseFailedError(
  response: unknown,
  requestId: string | undefined,
): OpenAIResponseFailedError {
  const record = isRecord(response) ? response : {};
  const error = isRecord(record.error) ? record.error : {};
  const code = optionalString(error.code) ?? 'response_failed';
  const detail = optionalString(error.message) ?? 'the response failed without a message';
  const suffix = requestId ? ` (request id ${requestId})` : '';
  return new OpenAIResponseFailedError(code, `OpenAI response failed (${code}): ${detail}${suffix}`, {
    requestId,
    responseId: optionalString(record.id),
  });
}

/**
 * Maps a Responses API `response` object to a {@link ModelResponse}. Assistant messages and function
 * calls become conversation items; `usage` counts one request.
 */
export function fromResponsesResponse(response: unknown, requestId: string | undefined): ModelResponse {
  if (!isRecord(response) || !Array.isArray(response.output)) {
    throw invalid('the body is not a response object with an output list', requestId);
  }
  if (response.status === 'failed') throw responseFailedError(response, requestId);
  const output: ConversationItem[] = [];
  for (const item of response.output) {
    const mapped = toItem(item, requestId);
    if (mapped) output.push(mapped);
  }
  const usage = isRecord(response.usage) ? response.usage : {};
  const inputTokens = numberOrZero(usage.input_tokens);
  const outputTokens = numberOrZero(usage.output_tokens);
  const result: ModelResponse = {
    output,
    usage: {
      requests: 1,
      inputTokens,
      outputTokens,
      totalTokens: numberOrZero(usage.total_tokens) || inputTokens + outputTokens,
    },
    raw: response,
  };
  const responseId = optionalString(response.id);
  if (responseId) result.responseId = responseId;
  return result;
}
