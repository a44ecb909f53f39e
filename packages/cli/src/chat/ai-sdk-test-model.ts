import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import type { ConversationItem, ModelRequest } from '@parley/core';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { chatResponse } from './chat-model.js';

/** The AI SDK prompt as the conversation items {@link chatResponse} reads. */
function conversation(options: LanguageModelV4CallOptions): ConversationItem[] {
  const items: ConversationItem[] = [];
  for (const message of options.prompt) {
    if (message.role === 'system') continue;
    for (const part of message.content) {
      if (part.type === 'text' && message.role !== 'tool') {
        items.push({ type: 'message', role: message.role, content: part.text });
      } else if (part.type === 'tool-call') {
        const args = JSON.stringify(part.input);
        items.push({ type: 'function_call', callId: part.toolCallId, name: part.toolName, arguments: args });
      } else if (part.type === 'tool-result' && part.output.type === 'text') {
        items.push({ type: 'function_call_output', callId: part.toolCallId, output: part.output.value });
      }
    }
  }
  return items;
}

/** The offline chat model's answer to this call as AI SDK content. */
function answer(options: LanguageModelV4CallOptions): LanguageModelV4Content[] {
  const input = conversation(options);
  const request: ModelRequest = { input, tools: [], modelSettings: {} };
  const response = chatResponse(request);
  if (response.type !== 'output') return [];
  let calls = input.filter((item) => item.type === 'function_call').length;
  return response.output.flatMap((item): LanguageModelV4Content[] => {
    if (item.type === 'message') return [{ type: 'text', text: item.content }];
    if (item.type !== 'function_call') return [];
    return [
      {
        type: 'tool-call',
        toolCallId: item.callId ?? `call_${++calls}`,
        toolName: item.name,
        input: item.arguments,
      },
    ];
  });
}

const USAGE = {
  inputTokens: { total: 0, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: undefined, reasoning: undefined },
};

/** The parts of a streamed answer: text word by word, tool calls whole, then `finish`. */
function streamParts(content: LanguageModelV4Content[]): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  content.forEach((part, index) => {
    if (part.type === 'text') {
      parts.push({ type: 'text-start', id: `t${index}` });
      for (const delta of part.text.split(/(?<= )/))
        parts.push({ type: 'text-delta', id: `t${index}`, delta });
      parts.push({ type: 'text-end', id: `t${index}` });
    } else if (part.type === 'tool-call') {
      parts.push(part);
    }
  });
  const calls = content.some((part) => part.type === 'tool-call');
  parts.push({
    type: 'finish',
    finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined },
    usage: USAGE,
  });
  return parts;
}

/**
 * `--model test:<name>`: the AI SDK's own `MockLanguageModelV4` answering like the offline chat model (it looks
 * orders up and refunds them), so `parley chat` runs through the AI SDK adapter with no key and no network.
 */
export function aiSdkTestModel(modelId: string): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'test',
    modelId,
    doGenerate: async (options) => ({
      content: answer(options),
      finishReason: { unified: 'stop', raw: undefined },
      usage: USAGE,
      warnings: [],
    }),
    doStream: async (options) => ({ stream: convertArrayToReadableStream(streamParts(answer(options))) }),
  });
}
