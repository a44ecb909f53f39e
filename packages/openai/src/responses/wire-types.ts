/**
 * The slice of the OpenAI Responses API wire format this adapter speaks. Only what is sent is typed
 * exactly; what is received is read defensively in `response-mapping.ts`.
 */

/** An input item of `POST /responses`. */
export type ResponsesInputItem =
  | { type: 'message'; role: 'user' | 'assistant' | 'system'; content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string }
  /** A hosted tool's item (`web_search_call`, `mcp_approval_response`, …), as `hosted-items.ts` writes it. */
  | Record<string, unknown>;

/** A function tool as the Responses API takes it. */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** The `tool_choice` field. */
export type ResponsesToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; name: string };

/** The `text.format` field that constrains the output to a JSON Schema. */
export interface ResponsesJsonSchemaFormat {
  type: 'json_schema';
  name: string;
  schema: Record<string, unknown>;
  strict: boolean;
}

/** The body of `POST /responses`. Provider data may add any other field the API accepts. */
export interface ResponsesRequestBody {
  model: string;
  instructions?: string;
  input: ResponsesInputItem[];
  /** Function tools, then hosted tools (as `hosted-tools.ts` writes them). */
  tools?: (ResponsesFunctionTool | Record<string, unknown>)[];
  include?: string[];
  tool_choice?: ResponsesToolChoice;
  parallel_tool_calls?: boolean;
  temperature?: number;
  top_p?: number;
  max_output_tokens?: number;
  text?: { format: ResponsesJsonSchemaFormat };
  store: boolean;
  stream?: boolean;
  [field: string]: unknown;
}
