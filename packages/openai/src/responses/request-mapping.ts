import type { ConversationItem, ModelRequest } from '@parley/core';
import { toResponsesHostedItem } from './hosted-items.js';
import { hostedToolIncludes, toResponsesHostedTool } from './hosted-tools.js';
import type { ResponsesInputItem, ResponsesRequestBody } from './wire-types.js';

/** How a request's `outputSchema` is sent as `text.format`. */
export interface StructuredOutputSettings {
  name: string;
  strict: boolean;
}

function toInputItem(item: ConversationItem): ResponsesInputItem {
  switch (item.type) {
    case 'message':
      // Item ids are not sent: with `store: false` the API cannot resolve ids of earlier responses.
      return { type: 'message', role: item.role, content: item.content };
    case 'function_call':
      return { type: 'function_call', call_id: item.callId, name: item.name, arguments: item.arguments };
    case 'function_call_output':
      return { type: 'function_call_output', call_id: item.callId, output: item.output };
    default:
      return toResponsesHostedItem(item);
  }
}

/**
 * Maps a {@link ModelRequest} to the body of `POST /responses`. `modelSettings.providerData` is merged
 * last, so it can set any field the API accepts (or override a mapped one, e.g. `store: true`).
 */
export function toResponsesBody(
  request: ModelRequest,
  model: string,
  structuredOutput: StructuredOutputSettings,
): ResponsesRequestBody {
  const settings = request.modelSettings;
  const body: ResponsesRequestBody = { model, input: request.input.map(toInputItem), store: false };
  if (request.systemInstructions !== undefined) body.instructions = request.systemInstructions;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    }));
  }
  const hosted = request.hostedTools ?? [];
  if (hosted.length > 0) {
    body.tools = [...(body.tools ?? []), ...hosted.map(toResponsesHostedTool)];
    const include = hostedToolIncludes(hosted);
    if (include.length > 0) body.include = include;
  }
  if (settings.toolChoice !== undefined) body.tool_choice = settings.toolChoice;
  if (settings.parallelToolCalls !== undefined) body.parallel_tool_calls = settings.parallelToolCalls;
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.maxOutputTokens !== undefined) body.max_output_tokens = settings.maxOutputTokens;
  if (request.outputSchema !== undefined) {
    const { $schema: _ignored, ...schema } = request.outputSchema;
    body.text = {
      format: { type: 'json_schema', name: structuredOutput.name, schema, strict: structuredOutput.strict },
    };
  }
  return { ...body, ...settings.providerData };
}
