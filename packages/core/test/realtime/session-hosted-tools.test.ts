import { Agent, HostedToolUnsupportedError, hostedTool, RealtimeSession } from '@parley/core';
import { MockRealtimeModel } from '@parley/mock';
import { expect, test } from 'vitest';

const search = hostedTool({ kind: 'web_search' });

test('a realtime agent offering a hosted tool is refused before connecting, not silently dropped', () => {
  const agent = new Agent({ name: 'Researcher', hostedTools: [search] });
  const model = new MockRealtimeModel();
  expect(() => new RealtimeSession(agent, { model })).toThrow(HostedToolUnsupportedError);
  expect(() => new RealtimeSession(agent, { model })).toThrow(
    /Realtime agent "Researcher" offers the hosted tool 'web_search'/,
  );
  expect(model.connections).toHaveLength(0);
});

test('an agent reachable by handoff counts, and so does the agent given to updateAgent', async () => {
  const researcher = new Agent({ name: 'Researcher', hostedTools: [search] });
  const front = new Agent({ name: 'Front', handoffs: [researcher] });
  expect(() => new RealtimeSession(front, { model: new MockRealtimeModel() })).toThrow(
    expect.objectContaining({ code: 'hosted_tool_unsupported', kind: 'web_search' }),
  );

  const session = new RealtimeSession(new Agent({ name: 'Plain' }), { model: new MockRealtimeModel() });
  await session.connect();
  await expect(session.updateAgent(researcher)).rejects.toBeInstanceOf(HostedToolUnsupportedError);
  expect(session.currentAgent.name).toBe('Plain');
  await session.close();
});
