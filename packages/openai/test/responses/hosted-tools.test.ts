import { Agent, HostedToolUnsupportedError, hostedTool, Runner, RunState, run, tool } from '@parley/core';
import {
  codeInterpreterTool,
  fileSearchTool,
  hostedMcpTool,
  imageGenerationTool,
  OpenAIChatCompletionsModel,
  webSearchTool,
} from '@parley/openai';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  API_KEY,
  BASE_URL,
  functionCallOutput,
  makeModel,
  messageOutput,
  responseObject,
  script,
  sseResponse,
  sseText,
  useMockServer,
} from './helpers.js';

const server = useMockServer();

const webSearchCall = {
  type: 'web_search_call',
  id: 'ws_1',
  status: 'completed',
  action: {
    type: 'search',
    queries: ['oslo weather today'],
    sources: [{ type: 'url', url: 'https://weather.example/oslo' }],
  },
};
const fileSearchCall = {
  type: 'file_search_call',
  id: 'fs_1',
  status: 'completed',
  queries: ['refund policy'],
  results: [{ file_id: 'file_9', filename: 'policy.pdf', score: 0.92, text: 'Refunds within 30 days.' }],
};
const codeCall = {
  type: 'code_interpreter_call',
  id: 'ci_1',
  status: 'completed',
  code: 'print(6 * 7)',
  container_id: 'cntr_1',
  outputs: [{ type: 'logs', logs: '42\n' }],
};
const imageCall = {
  type: 'image_generation_call',
  id: 'ig_1',
  status: 'completed',
  result: 'iVBORw0KGgo=',
  revised_prompt: 'a fjord at dawn',
};
const listTools = {
  type: 'mcp_list_tools',
  id: 'mcpl_1',
  server_label: 'deepwiki',
  tools: [{ name: 'ask_question', description: 'Ask about a repo', input_schema: { type: 'object' } }],
};
const approvalRequest = {
  type: 'mcp_approval_request',
  id: 'mcpr_1',
  server_label: 'deepwiki',
  name: 'ask_question',
  arguments: '{"repo":"parley/parley","question":"What is a RunState?"}',
};
const MCP_SECRET = 'Bearer mcp-Sup3rSecretToken0123456789';

function researcher(model: ReturnType<typeof makeModel>['model']) {
  return new Agent({
    name: 'Researcher',
    instructions: 'Research, then answer.',
    model,
    hostedTools: [
      webSearchTool({ searchContextSize: 'high', allowedDomains: ['weather.example'] }),
      fileSearchTool({ vectorStoreIds: ['vs_1'], maxNumResults: 5 }),
      codeInterpreterTool(),
      imageGenerationTool({ size: '1024x1024' }),
    ],
  });
}

describe('hosted tools on the Responses API, through the Runner', () => {
  it('sends the hosted tool definitions and returns their calls as typed run items', async () => {
    const recorded = script(server, [
      () =>
        HttpResponse.json(
          responseObject([webSearchCall, fileSearchCall, codeCall, imageCall, messageOutput('Done.')]),
        ),
    ]);
    const { model } = makeModel();

    const result = await run(researcher(model), 'Look it up.');

    expect(result.finalOutput).toBe('Done.');
    const body = recorded[0]!.body;
    expect(body.tools).toEqual([
      {
        type: 'web_search',
        search_context_size: 'high',
        filters: { allowed_domains: ['weather.example'] },
      },
      { type: 'file_search', vector_store_ids: ['vs_1'], max_num_results: 5 },
      { type: 'code_interpreter', container: { type: 'auto' } },
      { type: 'image_generation', size: '1024x1024' },
    ]);
    expect(body.include).toEqual([
      'web_search_call.action.sources',
      'file_search_call.results',
      'code_interpreter_call.outputs',
    ]);
    const hosted = result.newItems.filter((item) => item.type === 'hosted_tool_item');
    expect(hosted.map((item) => item.agent.name)).toEqual([
      'Researcher',
      'Researcher',
      'Researcher',
      'Researcher',
    ]);
    expect(hosted.map((item) => item.rawItem)).toMatchObject([
      {
        type: 'hosted_tool_call',
        kind: 'web_search',
        id: 'ws_1',
        status: 'completed',
        action: {
          type: 'search',
          queries: ['oslo weather today'],
          sources: ['https://weather.example/oslo'],
        },
      },
      {
        kind: 'file_search',
        queries: ['refund policy'],
        results: [{ fileId: 'file_9', filename: 'policy.pdf', score: 0.92, text: 'Refunds within 30 days.' }],
      },
      {
        kind: 'code_interpreter',
        code: 'print(6 * 7)',
        containerId: 'cntr_1',
        outputs: [{ type: 'logs', logs: '42\n' }],
      },
      { kind: 'image_generation', status: 'completed', imageBase64: 'iVBORw0KGgo=' },
    ]);
  });

  it('streams each hosted call as a run item event and sends the calls back as they came on the next turn', async () => {
    const final = responseObject([webSearchCall, functionCallOutput('call_1', 'note', '{"text":"sunny"}')]);
    const recorded = script(server, [
      () =>
        sseResponse(
          sseText([
            { type: 'response.created', response: { ...final, status: 'in_progress', output: [] } },
            { type: 'response.web_search_call.searching', item_id: 'ws_1', output_index: 0 },
            { type: 'response.completed', response: final },
          ]),
        ),
      () =>
        sseResponse(
          sseText([
            { type: 'response.completed', response: responseObject([messageOutput('It is sunny.')]) },
          ]),
        ),
    ]);
    const { model } = makeModel();
    const notes: string[] = [];
    const agent = new Agent({
      name: 'Researcher',
      model,
      hostedTools: [hostedTool({ kind: 'web_search' })],
      tools: [
        tool({
          name: 'note',
          description: 'Takes a note',
          parameters: z.object({ text: z.string() }),
          execute: ({ text }) => {
            notes.push(text);
            return 'noted';
          },
        }),
      ],
    });

    const stream = await new Runner().run(agent, 'Weather?', { stream: true });
    const names: string[] = [];
    const raw: string[] = [];
    for await (const event of stream) {
      if (event.type === 'run_item') names.push(event.name);
      if (event.type === 'raw_model_event' && event.data.type === 'raw')
        raw.push(String((event.data.event as { type?: unknown }).type));
    }
    await stream.completed;

    expect(stream.finalOutput).toBe('It is sunny.');
    expect(notes).toEqual(['sunny']);
    expect(names).toEqual(['hosted_tool_activity', 'tool_called', 'tool_output', 'message_output_created']);
    expect(raw).toContain('response.web_search_call.searching');
    expect(recorded[0]!.body.tools).toEqual([
      expect.objectContaining({ type: 'function', name: 'note' }),
      { type: 'web_search' },
    ]);
    expect(recorded[1]!.body.input).toEqual([
      { type: 'message', role: 'user', content: 'Weather?' },
      webSearchCall,
      { type: 'function_call', call_id: 'call_1', name: 'note', arguments: '{"text":"sunny"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'noted' },
    ]);
  });

  it('fails before any request when the model does not run a hosted tool kind, naming the kind and a model that does', async () => {
    const model = new OpenAIChatCompletionsModel({ apiKey: API_KEY, baseURL: BASE_URL, model: 'llama3.2' });
    const agent = new Agent({ name: 'Researcher', model, hostedTools: [webSearchTool()] });

    const failure = await run(agent, 'Look it up.').catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(HostedToolUnsupportedError);
    expect(failure).toMatchObject({
      code: 'hosted_tool_unsupported',
      kind: 'web_search',
      provider: 'openai-chat',
    });
    expect((failure as Error).message).toContain('OpenAIResponsesModel');
  });
});

describe('hosted MCP approvals on the Responses API', () => {
  function mcpAgent(model: ReturnType<typeof makeModel>['model']) {
    return new Agent({
      name: 'Assistant',
      model,
      hostedTools: [
        hostedMcpTool({
          serverLabel: 'deepwiki',
          serverUrl: 'https://mcp.deepwiki.example/mcp',
          allowedTools: ['ask_question'],
          headers: { Authorization: MCP_SECRET },
        }),
      ],
    });
  }

  it('pauses on an approval request, survives a saved RunState, and sends the approval on resume', async () => {
    const mcpCall = {
      type: 'mcp_call',
      id: 'mcp_1',
      server_label: 'deepwiki',
      name: 'ask_question',
      arguments: approvalRequest.arguments,
      approval_request_id: 'mcpr_1',
      output: 'A RunState is a paused run.',
      status: 'completed',
    };
    const recorded = script(server, [
      () => HttpResponse.json(responseObject([listTools, approvalRequest])),
      () => HttpResponse.json(responseObject([mcpCall, messageOutput('A RunState is a paused run.')])),
    ]);
    const { model } = makeModel();
    const agent = mcpAgent(model);

    const paused = await run(agent, 'What is a RunState?');

    expect(paused.finalOutput).toBeUndefined();
    expect(paused.interruptions.map((item) => item.rawItem)).toEqual([
      {
        type: 'hosted_tool_approval_request',
        callId: 'mcpr_1',
        server: 'deepwiki',
        name: 'ask_question',
        arguments: approvalRequest.arguments,
      },
    ]);
    expect(recorded[0]!.body.tools).toEqual([
      {
        type: 'mcp',
        server_label: 'deepwiki',
        server_url: 'https://mcp.deepwiki.example/mcp',
        allowed_tools: ['ask_question'],
        require_approval: 'always',
        headers: { Authorization: MCP_SECRET },
      },
    ]);
    const saved = paused.state.toString();
    expect(saved).not.toContain(MCP_SECRET);

    const restored = RunState.fromString(agent, saved);
    const [pending] = restored.getInterruptions();
    restored.approve(pending!);
    const resumed = await run(agent, restored);

    expect(resumed.finalOutput).toBe('A RunState is a paused run.');
    expect(recorded).toHaveLength(2);
    expect(recorded[1]!.body.input).toEqual([
      { type: 'message', role: 'user', content: 'What is a RunState?' },
      listTools,
      approvalRequest,
      { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true },
    ]);
    const hosted = resumed.newItems.filter((item) => item.type === 'hosted_tool_item');
    expect(hosted.map((item) => item.rawItem.type)).toEqual([
      'hosted_tool_call',
      'hosted_tool_approval_request',
      'hosted_tool_approval_response',
      'hosted_tool_call',
    ]);
    expect(hosted[3]?.rawItem).toMatchObject({
      kind: 'mcp',
      server: 'deepwiki',
      action: { type: 'call', name: 'ask_question', output: 'A RunState is a paused run.' },
    });
    expect(resumed.interruptions).toEqual([]);
  });

  it('sends a rejection with its reason, once, and the model answers without the call', async () => {
    const recorded = script(server, [
      () => HttpResponse.json(responseObject([approvalRequest])),
      () => HttpResponse.json(responseObject([messageOutput('I could not ask the wiki.')])),
    ]);
    const { model } = makeModel();
    const agent = mcpAgent(model);

    const paused = await run(agent, 'What is a RunState?');
    const [pending] = paused.interruptions;
    paused.state.reject(pending!, { message: 'Not allowed today.' });
    paused.state.reject(pending!, { message: 'Not allowed today.' });
    const resumed = await run(agent, paused.state);

    expect(resumed.finalOutput).toBe('I could not ask the wiki.');
    const responses = (recorded[1]!.body.input as { type: string }[]).filter(
      (item) => item.type === 'mcp_approval_response',
    );
    expect(responses).toEqual([
      {
        type: 'mcp_approval_response',
        approval_request_id: 'mcpr_1',
        approve: false,
        reason: 'Not allowed today.',
      },
    ]);
  });

  it('keeps pausing while the request is undecided, and rejects a decision for other arguments', async () => {
    script(server, [() => HttpResponse.json(responseObject([approvalRequest]))]);
    const { model } = makeModel();
    const agent = mcpAgent(model);

    const paused = await run(agent, 'What is a RunState?');
    const again = await run(agent, paused.state);
    expect(again.interruptions.map((item) => item.rawItem.callId)).toEqual(['mcpr_1']);

    const [pending] = again.interruptions;
    expect(() =>
      again.state.approve({ ...pending!, rawItem: { ...pending!.rawItem, arguments: '{"repo":"other"}' } }),
    ).toThrow(expect.objectContaining({ code: 'approval_not_pending' }));
  });
});
