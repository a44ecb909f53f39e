import {
  APICallError,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Content,
  type LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { AISdkModel } from '@parley/ai-sdk';
import {
  defineTextConformanceSuite,
  type TextHarnessOutput,
  type TextHarnessRequest,
  type TextHarnessResponse,
  type TextModelHarness,
} from '@parley/conformance';
import type { ConversationItem } from '@parley/core';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { usage } from './helpers.js';

function content(output: TextHarnessOutput[], next: () => string): LanguageModelV4Content[] {
  return output.map((item) =>
    item.type === 'message'
      ? { type: 'text', text: item.text }
      : {
          type: 'tool-call',
          toolCallId: item.callId ?? next(),
          toolName: item.name,
          input: JSON.stringify(item.arguments),
        },
  );
}

function streamParts(parts: LanguageModelV4Content[], tokens: { inputTokens: number; outputTokens: number }) {
  const stream: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: 'resp_conformance' },
  ];
  parts.forEach((part, index) => {
    if (part.type === 'text') {
      stream.push({ type: 'text-start', id: `t${index}` });
      for (const delta of part.text.split(/(?<= )/))
        stream.push({ type: 'text-delta', id: `t${index}`, delta });
      stream.push({ type: 'text-end', id: `t${index}` });
    } else if (part.type === 'tool-call') {
      stream.push({ type: 'tool-input-start', id: part.toolCallId, toolName: part.toolName });
      stream.push({ type: 'tool-input-delta', id: part.toolCallId, delta: part.input });
      stream.push({ type: 'tool-input-end', id: part.toolCallId });
      stream.push(part);
    }
  });
  const calls = parts.some((p) => p.type === 'tool-call');
  stream.push({
    type: 'finish',
    finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined },
    usage: usage(tokens.inputTokens, tokens.outputTokens),
  });
  return stream;
}

function toRequest(options: LanguageModelV4CallOptions, streamed: boolean): TextHarnessRequest {
  const [first, ...rest] = options.prompt;
  const instructions = first?.role === 'system' ? first.content : undefined;
  const input: ConversationItem[] = [];
  for (const message of instructions !== undefined ? rest : options.prompt) {
    if (message.role === 'system') {
      input.push({ type: 'message', role: 'system', content: message.content });
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text')
        input.push({ type: 'message', role: message.role as 'user' | 'assistant', content: part.text });
      else if (part.type === 'tool-call')
        input.push({
          type: 'function_call',
          callId: part.toolCallId,
          name: part.toolName,
          arguments: JSON.stringify(part.input),
        });
      else if (part.type === 'tool-result' && part.output.type === 'text')
        input.push({ type: 'function_call_output', callId: part.toolCallId, output: part.output.value });
    }
  }
  return {
    ...(instructions !== undefined && { instructions }),
    input,
    tools: (options.tools ?? []).map((tool) => tool.name),
    outputSchema: options.responseFormat?.type === 'json' && options.responseFormat.schema !== undefined,
    streamed,
  };
}

/** `AISdkModel` over the AI SDK's own `MockLanguageModelV4`, whose answers the harness scripts. */
function aiSdkHarness(): TextModelHarness {
  const queue: TextHarnessResponse[] = [];
  const requests: TextHarnessRequest[] = [];
  let calls = 0;
  const nextId = () => `call_${++calls}`;
  const take = (options: LanguageModelV4CallOptions, streamed: boolean) => {
    requests.push(toRequest(options, streamed));
    const next = queue.shift();
    if (!next) throw new Error('no scripted response');
    if ('hang' in next) return new Promise<never>(() => {});
    if ('error' in next) {
      throw new APICallError({
        message: next.error.message,
        url: 'https://provider.test/v1/generate',
        requestBodyValues: {},
        statusCode: next.error.status,
        responseHeaders: { 'x-request-id': 'req_conformance' },
        isRetryable: next.error.status === 429 || next.error.status >= 500,
      });
    }
    return { parts: content(next.output, nextId), usage: next.usage ?? { inputTokens: 10, outputTokens: 5 } };
  };
  const mock = new MockLanguageModelV4({
    doGenerate: async (options) => {
      const next = await take(options, false);
      return {
        content: next.parts,
        finishReason: { unified: 'stop', raw: undefined },
        usage: usage(next.usage.inputTokens, next.usage.outputTokens),
        response: { id: 'resp_conformance' },
        warnings: [],
      };
    },
    doStream: async (options) => {
      const next = await take(options, true);
      return { stream: convertArrayToReadableStream(streamParts(next.parts, next.usage)) };
    },
  });
  return {
    model: new AISdkModel(mock),
    respondWith: (...responses) => void queue.push(...responses),
    requests: () => requests,
    dispose: () => {},
  };
}

defineTextConformanceSuite('ai-sdk (MockLanguageModelV4)', aiSdkHarness);
