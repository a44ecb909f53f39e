import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Message,
  LanguageModelV3ToolChoice,
  LanguageModelV4CallOptions,
} from '@ai-sdk/provider';
import { type ConversationItem, isHostedToolItem, type ModelRequest, type ToolChoice } from '@parley/core';

type AssistantPart = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'][number];
type ToolPart = Extract<LanguageModelV3Message, { role: 'tool' }>['content'][number];

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // The provider sends it back as the model wrote it; the Runner already answered the call with an error.
    return text;
  }
}

/**
 * The conversation as an AI SDK prompt: the instructions first as a system message, then one message per run of
 * items: an assistant's text and function calls in one assistant message, consecutive function outputs in one tool
 * message (providers that need alternating roles, Anthropic's among them, get them).
 */
export function toPrompt(request: ModelRequest): LanguageModelV3Message[] {
  const prompt: LanguageModelV3Message[] = [];
  if (request.systemInstructions !== undefined)
    prompt.push({ role: 'system', content: request.systemInstructions });
  const toolNames = new Map<string, string>();
  let assistant: AssistantPart[] | undefined;
  let tool: ToolPart[] | undefined;
  const close = () => {
    assistant = undefined;
    tool = undefined;
  };
  for (const item of request.input as readonly ConversationItem[]) {
    // Hosted tools run at another provider; their items mean nothing to this model.
    if (isHostedToolItem(item)) continue;
    if (item.type === 'message' && item.role !== 'assistant') {
      close();
      prompt.push(
        item.role === 'system'
          ? { role: 'system', content: item.content }
          : { role: 'user', content: [{ type: 'text', text: item.content }] },
      );
      continue;
    }
    if (item.type === 'function_call_output') {
      if (!tool) {
        close();
        tool = [];
        prompt.push({ role: 'tool', content: tool });
      }
      tool.push({
        type: 'tool-result',
        toolCallId: item.callId,
        toolName: toolNames.get(item.callId) ?? '',
        output: { type: 'text', value: item.output },
      });
      continue;
    }
    if (!assistant) {
      close();
      assistant = [];
      prompt.push({ role: 'assistant', content: assistant });
    }
    if (item.type === 'message') {
      assistant.push({ type: 'text', text: item.content });
    } else {
      toolNames.set(item.callId, item.name);
      assistant.push({
        type: 'tool-call',
        toolCallId: item.callId,
        toolName: item.name,
        input: parseArguments(item.arguments),
      });
    }
  }
  return prompt;
}

/** Call options both specification versions accept: only parts v3 and v4 share are ever built. */
export type CallOptions = LanguageModelV4CallOptions & LanguageModelV3CallOptions;

function toToolChoice(choice: ToolChoice): LanguageModelV3ToolChoice {
  return typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.name };
}

/**
 * The call options of one request: prompt, function tools, tool choice, structured output as `responseFormat`
 * (`json` with the schema), sampling settings, and `modelSettings.providerData` as the AI SDK's `providerOptions`
 * (e.g. `{ anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } }`). `parallelToolCalls` has no
 * field in the specification: set it per provider through `providerData`.
 */
export function toCallOptions(
  request: ModelRequest,
  signal: AbortSignal | undefined,
  structuredOutputName: string,
): CallOptions {
  const settings = request.modelSettings;
  const options: LanguageModelV3CallOptions = { prompt: toPrompt(request) };
  if (request.tools.length > 0) {
    options.tools = request.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters as never,
    }));
  }
  if (settings.toolChoice !== undefined) options.toolChoice = toToolChoice(settings.toolChoice);
  if (request.outputSchema !== undefined) {
    const { $schema: _ignored, ...schema } = request.outputSchema;
    options.responseFormat = { type: 'json', schema: schema as never, name: structuredOutputName };
  }
  if (settings.temperature !== undefined) options.temperature = settings.temperature;
  if (settings.topP !== undefined) options.topP = settings.topP;
  if (settings.maxOutputTokens !== undefined) options.maxOutputTokens = settings.maxOutputTokens;
  if (settings.providerData !== undefined) options.providerOptions = settings.providerData as never;
  if (signal) options.abortSignal = signal;
  return options as CallOptions;
}
