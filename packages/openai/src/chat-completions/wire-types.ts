/**
 * The slice of the Chat Completions wire format (`POST {baseURL}/chat/completions`) this adapter sends. What is
 * received is read defensively in `response-mapping.ts` and `stream-accumulator.ts`.
 */

/** A tool call of an assistant message. */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A message of the `messages` list. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A function tool. */
export interface ChatFunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The `tool_choice` field. */
export type ChatToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/** The body of `POST /chat/completions`. Provider data may add any other field the server accepts. */
export interface ChatRequestBody {
  model: string;
  messages: ChatMessage[];
  tools?: ChatFunctionTool[];
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean;
  temperature?: number;
  top_p?: number;
  max_completion_tokens?: number;
  response_format?: {
    type: 'json_schema';
    json_schema: { name: string; schema: Record<string, unknown>; strict: boolean };
  };
  stream?: boolean;
  stream_options?: { include_usage: boolean };
  [field: string]: unknown;
}
