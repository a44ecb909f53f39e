import type { ConversationItem, ModelResponse, Usage } from '@parley/core';
import { OpenAIAPIError, OpenAIResponseFailedError } from '../responses/errors.js';
import { isRecord, numberOrZero, optionalString } from '../responses/json.js';

function suffix(requestId: string | undefined): string {
  return requestId ? ` (request id ${requestId})` : '';
}

/** An answer the adapter cannot read. */
export function invalidChatResponse(what: string, requestId: string | undefined): OpenAIAPIError {
  return new OpenAIAPIError(
    'invalid_response',
    `The Chat Completions server sent an unexpected response: ${what}.${suffix(requestId)}`,
    { status: 200, requestId },
  );
}

/**
 * The error some servers (OpenRouter, vLLM) put in a 200 body or a stream chunk, `{ error: { message, code } }`, as
 * an {@link OpenAIResponseFailedError}; `undefined` when `body` carries none.
 */
export function bodyError(body: Record<string, unknown>, requestId: string | undefined) {
  if (!isRecord(body.error)) return undefined;
  const error = body.error;
  const code =
    optionalString(error.code) ?? (typeof error.code === 'number' ? String(error.code) : undefined);
  const type = optionalString(error.type);
  const name = code ?? type ?? 'response_failed';
  const detail = optionalString(error.message) ?? 'no error message';
  return new OpenAIResponseFailedError(
    name,
    `Chat Completions error (${name}): ${detail}${suffix(requestId)}`,
    {
      requestId,
      type,
      param: optionalString(error.param),
      responseId: optionalString(body.id),
    },
  );
}

/** Parley's usage of one call from a `usage` object (`prompt_tokens`, `completion_tokens`, cached tokens). */
export function toChatUsage(value: unknown): Usage {
  const usage = isRecord(value) ? value : {};
  const inputTokens = numberOrZero(usage.prompt_tokens);
  const outputTokens = numberOrZero(usage.completion_tokens);
  const result: Usage = {
    requests: 1,
    inputTokens,
    outputTokens,
    totalTokens: numberOrZero(usage.total_tokens) || inputTokens + outputTokens,
  };
  const details = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : undefined;
  if (typeof details?.cached_tokens === 'number')
    result.inputTokenDetails = { cachedTokens: details.cached_tokens };
  return result;
}

/** The items of an assistant message: its text (or refusal) as a message, then its tool calls. */
export function messageItems(
  text: string,
  calls: readonly { id: string; name: string; arguments: string }[],
): ConversationItem[] {
  const output: ConversationItem[] = [];
  if (text !== '') output.push({ type: 'message', role: 'assistant', content: text });
  for (const call of calls) {
    output.push({ type: 'function_call', callId: call.id, name: call.name, arguments: call.arguments });
  }
  return output;
}

/** Maps a `chat.completion` object (its first choice) to a {@link ModelResponse}. */
export function fromChatCompletion(body: unknown, requestId: string | undefined): ModelResponse {
  if (!isRecord(body)) throw invalidChatResponse('the body is not a JSON object', requestId);
  const failed = bodyError(body, requestId);
  if (failed) throw failed;
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = isRecord(choice) && isRecord(choice.message) ? choice.message : undefined;
  if (!message) throw invalidChatResponse('the body has no choices[0].message', requestId);
  const text = optionalString(message.content) ?? optionalString(message.refusal) ?? '';
  const calls: { id: string; name: string; arguments: string }[] = [];
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
    const id = isRecord(call) ? optionalString(call.id) : undefined;
    const name = optionalString(fn?.name);
    if (!id || !name) throw invalidChatResponse('a tool call lacks its id or function name', requestId);
    calls.push({ id, name, arguments: typeof fn?.arguments === 'string' ? fn.arguments : '{}' });
  }
  const response: ModelResponse = {
    output: messageItems(text, calls),
    usage: toChatUsage(body.usage),
    raw: body,
  };
  const id = optionalString(body.id);
  if (id) response.responseId = id;
  return response;
}
