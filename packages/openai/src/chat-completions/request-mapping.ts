import { type ConversationItem, isHostedToolItem, type ModelRequest, type ToolChoice } from '@parley/core';
import type { StructuredOutputSettings } from '../responses/request-mapping.js';
import type { ChatMessage, ChatRequestBody, ChatToolChoice } from './wire-types.js';

/**
 * The conversation as Chat Completions messages: the instructions first as a system message; an assistant's text
 * and the function calls that follow it in one assistant message (`tool_calls`); each function output a `tool`
 * message.
 */
export function toMessages(request: ModelRequest): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (request.systemInstructions !== undefined) {
    messages.push({ role: 'system', content: request.systemInstructions });
  }
  let assistant: Extract<ChatMessage, { role: 'assistant' }> | undefined;
  for (const item of request.input as readonly ConversationItem[]) {
    // Hosted tools (Responses) have no Chat Completions form; their results are in the messages around them.
    if (isHostedToolItem(item)) continue;
    if (item.type === 'function_call') {
      if (!assistant) {
        assistant = { role: 'assistant', content: null };
        messages.push(assistant);
      }
      assistant.tool_calls ??= [];
      assistant.tool_calls.push({
        id: item.callId,
        type: 'function',
        function: { name: item.name, arguments: item.arguments },
      });
      continue;
    }
    assistant = undefined;
    if (item.type === 'function_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.callId, content: item.output });
    } else if (item.role === 'assistant') {
      assistant = { role: 'assistant', content: item.content };
      messages.push(assistant);
    } else {
      messages.push({ role: item.role, content: item.content });
    }
  }
  return messages;
}

function toToolChoice(choice: ToolChoice): ChatToolChoice {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/**
 * Maps a {@link ModelRequest} to the body of `POST /chat/completions`. `maxOutputTokens` is sent as
 * `max_completion_tokens`; `modelSettings.providerData` is merged last, so it can set any field the server accepts
 * (e.g. `max_tokens` for a server that knows only that one, or Ollama's `options`).
 */
export function toChatBody(
  request: ModelRequest,
  model: string,
  structuredOutput: StructuredOutputSettings,
): ChatRequestBody {
  const settings = request.modelSettings;
  const body: ChatRequestBody = { model, messages: toMessages(request) };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (settings.toolChoice !== undefined) body.tool_choice = toToolChoice(settings.toolChoice);
  if (settings.parallelToolCalls !== undefined && request.tools.length > 0) {
    body.parallel_tool_calls = settings.parallelToolCalls;
  }
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.maxOutputTokens !== undefined) body.max_completion_tokens = settings.maxOutputTokens;
  if (request.outputSchema !== undefined) {
    const { $schema: _ignored, ...schema } = request.outputSchema;
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: structuredOutput.name, schema, strict: structuredOutput.strict },
    };
  }
  return { ...body, ...settings.providerData };
}
