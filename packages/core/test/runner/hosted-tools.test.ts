import {
  Agent,
  type ConversationItem,
  HostedToolUnsupportedError,
  hostedTool,
  RunState,
  UnknownOptionError,
} from '@parley/core';
import { MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { bothWays } from './both-ways.js';

const approvalRequest: ConversationItem = {
  type: 'hosted_tool_approval_request',
  callId: 'req_1',
  server: 'wiki',
  name: 'search',
  arguments: '{"q":"runs"}',
};
const listed: ConversationItem = {
  type: 'hosted_tool_call',
  kind: 'mcp',
  id: 'list_1',
  status: 'completed',
  server: 'wiki',
  action: { type: 'list_tools', tools: [{ name: 'search', inputSchema: { type: 'object' } }] },
  providerData: { type: 'provider_list', id: 'list_1', extra: [1, 2] },
};
const wiki = hostedTool({ kind: 'mcp', server: 'wiki', url: 'https://wiki.example/mcp' });

describe('hostedTool()', () => {
  test('checks its options before any run', () => {
    expect(() => hostedTool({ kind: 'web_search', sarch: 1 } as never)).toThrow(UnknownOptionError);
    expect(() => hostedTool({ kind: 'browser' } as never)).toThrow(
      expect.objectContaining({ code: 'invalid_option', message: expect.stringContaining("'web_search'") }),
    );
    expect(() => hostedTool({ kind: 'mcp', server: 'has space' })).toThrow(/server must be a label/);
    expect(() => hostedTool({ kind: 'file_search', stores: [] })).toThrow(/stores must list/);
    expect(() => new Agent({ name: 'A', hostedTools: [wiki, wiki] })).toThrow(/mcp:wiki twice/);
    expect(() => new Agent({ name: 'A', hostedTools: [{ kind: 'web_search' } as never] })).toThrow(
      /hostedTool\(\)/,
    );
  });
});

describe('hosted tools in the Runner', () => {
  test('a model that does not declare the kind fails before its first call', async () => {
    await bothWays(async (h) => {
      const model = h.model([MockModel.text('never')], { capabilities: { hostedTools: ['web_search'] } });
      const agent = new Agent({ name: 'Researcher', model, hostedTools: [wiki] });
      const failure = await h.run(agent, 'hi').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(HostedToolUnsupportedError);
      expect(failure).toMatchObject({ kind: 'mcp', provider: 'mock' });
      expect((failure as Error).message).toContain("runs 'web_search'");
      expect(model.calls).toHaveLength(0);
      model.enqueue(MockModel.text('unused'));
    });
  });

  test('an approval request pauses the run like a function call; the decision goes to the model once', async () => {
    await bothWays(async (h) => {
      const model = h.model(
        [{ type: 'output', output: [listed, approvalRequest] }, MockModel.text('Found it.')],
        { capabilities: { hostedTools: ['mcp'] } },
      );
      const agent = new Agent({ name: 'Assistant', model, hostedTools: [wiki] });

      const paused = await h.run(agent, 'Search the wiki');
      expect(model.calls[0]?.request.hostedTools).toEqual([wiki]);
      expect(paused.state.status).toBe('interrupted');
      expect(paused.interruptions).toEqual([{ type: 'tool_approval_item', agent, rawItem: approvalRequest }]);

      const restored = RunState.fromString(agent, paused.state.toString());
      expect(restored.generatedItems.map((item) => [item.type, item.rawItem])).toEqual([
        ['hosted_tool_item', listed],
        ['hosted_tool_item', approvalRequest],
        ['tool_approval_item', approvalRequest],
      ]);
      restored.approve(restored.getInterruptions()[0]!);
      const done = await h.run(agent, restored);

      expect(done.finalOutput).toBe('Found it.');
      expect(model.calls[1]?.request.input).toEqual([
        { type: 'message', role: 'user', content: 'Search the wiki' },
        listed,
        approvalRequest,
        { type: 'hosted_tool_approval_response', callId: 'req_1', approved: true },
      ]);
      expect(done.state.getInterruptions()).toEqual([]);
    });
  });

  test('onApproval decides by itself (async too): the run never pauses and the decision reaches the model', async () => {
    const asked: string[] = [];
    const second: ConversationItem = {
      type: 'hosted_tool_approval_request',
      callId: 'req_2',
      server: 'wiki',
      name: 'delete',
      arguments: '{"q":"runs"}',
    };
    // One tool for both modes: the requests of both are compared, the tool with them.
    const deciding = hostedTool({
      kind: 'mcp',
      server: 'wiki',
      url: 'https://wiki.example/mcp',
      onApproval: async (context, request) => {
        asked.push(`${request.server}/${request.name} ${request.arguments} ${String(context.context)}`);
        return request.name === 'search' ? { approve: true } : { approve: false, reason: 'Read-only.' };
      },
    });
    await bothWays(async (h) => {
      asked.length = 0;
      const model = h.model(
        [{ type: 'output', output: [approvalRequest, second] }, MockModel.text('Found it.')],
        { capabilities: { hostedTools: ['mcp'] } },
      );
      const agent = new Agent({ name: 'Assistant', model, hostedTools: [deciding] });

      const done = await h.run(agent, 'Search the wiki', { context: 'ctx' });

      expect(done.finalOutput).toBe('Found it.');
      expect(done.interruptions).toEqual([]);
      expect(asked).toEqual(['wiki/search {"q":"runs"} ctx', 'wiki/delete {"q":"runs"} ctx']);
      expect(model.calls[1]?.request.input.slice(-2)).toEqual([
        { type: 'hosted_tool_approval_response', callId: 'req_1', approved: true },
        { type: 'hosted_tool_approval_response', callId: 'req_2', approved: false, reason: 'Read-only.' },
      ]);
    });
  });

  test('an onApproval that throws rejects the call instead of pausing or failing the run', async () => {
    const broken = hostedTool({
      kind: 'mcp',
      server: 'wiki',
      url: 'https://wiki.example/mcp',
      onApproval: () => {
        throw new Error('policy service down');
      },
    });
    await bothWays(async (h) => {
      const model = h.model([{ type: 'output', output: [approvalRequest] }, MockModel.text('Could not.')], {
        capabilities: { hostedTools: ['mcp'] },
      });
      const agent = new Agent({ name: 'Assistant', model, hostedTools: [broken] });
      const done = await h.run(agent, 'Search the wiki');
      expect(done.finalOutput).toBe('Could not.');
      expect(model.calls[1]?.request.input.at(-1)).toEqual({
        type: 'hosted_tool_approval_response',
        callId: 'req_1',
        approved: false,
      });
    });
  });

  test('a saved state with a malformed hosted item is refused', () => {
    const agent = new Agent({ name: 'Assistant', hostedTools: [wiki] });
    const saved = JSON.parse(
      JSON.stringify({
        $schemaVersion: '1.0',
        status: 'in_progress',
        startingAgent: 'Assistant',
        currentAgent: 'Assistant',
        currentAgentStarted: false,
        currentTurn: 0,
        maxTurns: 10,
        originalInput: [{ type: 'hosted_tool_call', kind: 'teleport', id: 'x', status: 'completed' }],
        sessionHistory: [],
        modelInputOverride: null,
        generatedItems: [],
        modelResponses: [],
        usage: { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        inputGuardrailResults: [],
        outputGuardrailResults: [],
        pendingTurn: null,
        approvals: [],
        hasFinalOutput: false,
        sessionSaved: { input: false, items: 0 },
      }),
    );
    expect(() => RunState.fromString(agent, JSON.stringify(saved))).toThrow(
      expect.objectContaining({ code: 'run_state_invalid' }),
    );
  });
});
