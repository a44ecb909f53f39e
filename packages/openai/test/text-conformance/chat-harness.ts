import type { TextHarnessRequest, TextModelHarness } from '@parley/conformance';
import type { ConversationItem } from '@parley/core';
import { HttpResponse } from 'msw';
import type { SetupServer } from 'msw/node';
import { CHAT_URL, makeChatModel } from '../chat-completions/helpers.js';
import { type AssignedOutput, pieces, scriptedEndpoint, sse } from './scripted-backend.js';

function render(
  output: AssignedOutput[],
  usage: { inputTokens: number; outputTokens: number },
  streamed: boolean,
) {
  const text = output.flatMap((item) => (item.type === 'message' ? [item.text] : [])).join('');
  const calls = output.flatMap((item) =>
    item.type === 'function_call'
      ? [{ id: item.callId, type: 'function', function: { name: item.name, arguments: item.arguments } }]
      : [],
  );
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
  const wireUsage = {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
  const base = { id: 'chatcmpl-conformance', created: 1, model: 'llama-test' };
  if (!streamed) {
    const message = {
      role: 'assistant',
      content: text || null,
      ...(calls.length > 0 && { tool_calls: calls }),
    };
    return HttpResponse.json(
      {
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage: wireUsage,
      },
      { headers: { 'x-request-id': 'req_conformance' } },
    );
  }
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    data: {
      ...base,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    },
  });
  const chunks: { data: unknown }[] = [chunk({ role: 'assistant', content: '' })];
  for (const delta of text ? pieces(text) : []) chunks.push(chunk({ content: delta }));
  calls.forEach((call, index) => {
    const half = Math.ceil(call.function.arguments.length / 2);
    chunks.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: 'function',
            function: { name: call.function.name, arguments: call.function.arguments.slice(0, half) },
          },
        ],
      }),
    );
    chunks.push(
      chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments.slice(half) } }] }),
    );
  });
  chunks.push(chunk({}, finish));
  chunks.push({ data: { ...base, object: 'chat.completion.chunk', choices: [], usage: wireUsage } });
  return sse([...chunks, { data: '[DONE]' }]);
}

function toItems(messages: Record<string, unknown>[]): ConversationItem[] {
  const items: ConversationItem[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      items.push({
        type: 'function_call_output',
        callId: String(message.tool_call_id),
        output: String(message.content),
      });
      continue;
    }
    if (typeof message.content === 'string' && message.content !== '') {
      items.push({
        type: 'message',
        role: message.role as 'user' | 'assistant' | 'system',
        content: message.content,
      });
    }
    for (const call of (message.tool_calls ?? []) as {
      id: string;
      function: { name: string; arguments: string };
    }[]) {
      items.push({
        type: 'function_call',
        callId: call.id,
        name: call.function.name,
        arguments: call.function.arguments,
      });
    }
  }
  return items;
}

/** `OpenAIChatCompletionsModel` against a Chat Completions server served by msw. */
export function chatHarness(server: SetupServer): TextModelHarness {
  const endpoint = scriptedEndpoint(server, CHAT_URL, render);
  const { model } = makeChatModel({ maxRetries: 0 });
  return {
    model,
    respondWith: endpoint.respondWith,
    requests: () =>
      endpoint.bodies.map((body): TextHarnessRequest => {
        const messages = body.messages as Record<string, unknown>[];
        const system = messages[0]?.role === 'system' ? String(messages[0].content) : undefined;
        return {
          ...(system !== undefined && { instructions: system }),
          input: toItems(system !== undefined ? messages.slice(1) : messages),
          tools: ((body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name),
          outputSchema: (body.response_format as { type?: string } | undefined)?.type === 'json_schema',
          streamed: body.stream === true,
        };
      }),
    dispose: () => server.resetHandlers(),
  };
}
