import type { TextHarnessRequest, TextModelHarness } from '@parley/conformance';
import type { ConversationItem } from '@parley/core';
import { HttpResponse } from 'msw';
import type { SetupServer } from 'msw/node';
import { makeModel, RESPONSES_URL } from '../responses/helpers.js';
import { type AssignedOutput, pieces, scriptedEndpoint, sse } from './scripted-backend.js';

function outputItem(item: AssignedOutput, index: number) {
  return item.type === 'message'
    ? {
        type: 'message',
        id: `msg_${index}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: item.text, annotations: [] }],
      }
    : {
        type: 'function_call',
        id: `fc_${index}`,
        call_id: item.callId,
        name: item.name,
        arguments: item.arguments,
        status: 'completed',
      };
}

function render(
  output: AssignedOutput[],
  usage: { inputTokens: number; outputTokens: number },
  streamed: boolean,
) {
  const response = {
    id: 'resp_conformance',
    object: 'response',
    status: 'completed',
    output: output.map(outputItem),
    usage: {
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      total_tokens: usage.inputTokens + usage.outputTokens,
    },
  };
  if (!streamed) return HttpResponse.json(response, { headers: { 'x-request-id': 'req_conformance' } });
  const events: { type: string; [field: string]: unknown }[] = [
    { type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } },
  ];
  output.forEach((item, index) => {
    const done = outputItem(item, index);
    events.push({
      type: 'response.output_item.added',
      output_index: index,
      item: { ...done, status: 'in_progress' },
    });
    if (item.type === 'message') {
      for (const delta of pieces(item.text)) {
        events.push({ type: 'response.output_text.delta', item_id: done.id, output_index: index, delta });
      }
    }
    events.push({ type: 'response.output_item.done', output_index: index, item: done });
  });
  events.push({ type: 'response.completed', response });
  return sse(
    events.map((event, sequence) => ({ event: event.type, data: { ...event, sequence_number: sequence } })),
  );
}

function toItem(item: Record<string, unknown>): ConversationItem {
  if (item.type === 'function_call') {
    return {
      type: 'function_call',
      callId: String(item.call_id),
      name: String(item.name),
      arguments: String(item.arguments),
    };
  }
  if (item.type === 'function_call_output') {
    return { type: 'function_call_output', callId: String(item.call_id), output: String(item.output) };
  }
  return {
    type: 'message',
    role: item.role as 'user' | 'assistant' | 'system',
    content: String(item.content),
  };
}

/** `OpenAIResponsesModel` against the Responses API served by msw. */
export function responsesHarness(server: SetupServer): TextModelHarness {
  const endpoint = scriptedEndpoint(server, RESPONSES_URL, render);
  const { model } = makeModel({ maxRetries: 0 });
  return {
    model,
    respondWith: endpoint.respondWith,
    requests: () =>
      endpoint.bodies.map(
        (body): TextHarnessRequest => ({
          ...(typeof body.instructions === 'string' && { instructions: body.instructions }),
          input: (body.input as Record<string, unknown>[]).map(toItem),
          tools: ((body.tools ?? []) as { name: string }[]).map((tool) => tool.name),
          outputSchema:
            (body.text as { format?: { type?: string } } | undefined)?.format?.type === 'json_schema',
          streamed: body.stream === true,
        }),
      ),
    dispose: () => server.resetHandlers(),
  };
}
