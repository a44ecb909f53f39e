import { Agent, RunHooks, Runner } from '@parley/core';
import { MockModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { bothWays } from './both-ways.js';
import { adder } from './fixtures.js';

function recordAll(hooks: RunHooks, log: string[], prefix = '') {
  hooks.on('agent_started', ({ agent, turn, context }) => {
    log.push(`${prefix}agent_started ${agent.name} turn=${turn} requests=${context.usage.requests}`);
  });
  hooks.on('agent_done', ({ agent, output }) => {
    log.push(`${prefix}agent_done ${agent.name} ${JSON.stringify(output)}`);
  });
  hooks.on('handoff', ({ fromAgent, toAgent, call }) => {
    log.push(`${prefix}handoff ${fromAgent.name}->${toAgent.name} ${call.callId}`);
  });
  hooks.on('tool_started', ({ agent, tool, call }) => {
    log.push(`${prefix}tool_started ${agent.name} ${tool.name} ${call.arguments}`);
  });
  hooks.on('tool_done', ({ agent, call, result }) => {
    log.push(`${prefix}tool_done ${agent.name} ${call.name} ${result.status} ${result.output}`);
  });
}

describe('run hooks', () => {
  test('agent start/end, handoff and tool start/end, with the agent and the call', async () => {
    await bothWays(async (h) => {
      const { add } = adder();
      const billing = new Agent({
        name: 'Billing',
        tools: [add],
        model: h.model([MockModel.toolCall('add', { a: 2, b: 2 }), MockModel.text('4 total')]),
      });
      const triage = new Agent({
        name: 'Triage',
        handoffs: [billing],
        model: h.model([MockModel.handoff('Billing')]),
      });
      const log: string[] = [];
      const hooks = new RunHooks();
      recordAll(hooks, log);
      await h.run(triage, 'sum please', { hooks });
      expect(log).toEqual([
        'agent_started Triage turn=1 requests=0',
        'handoff Triage->Billing call_1',
        'agent_started Billing turn=2 requests=1',
        'tool_started Billing add {"a":2,"b":2}',
        'tool_done Billing add completed 4',
        'agent_done Billing "4 total"',
      ]);
    });
  });

  test("runner hooks fire for every run, before the run's own; on() returns an unsubscribe", async () => {
    await bothWays(async (h) => {
      const log: string[] = [];
      const runnerHooks = new RunHooks();
      recordAll(runnerHooks, log, 'runner:');
      const runner = new Runner({ hooks: runnerHooks });
      const runHooks = new RunHooks();
      const off = runHooks.on('agent_done', () => {
        log.push('run:agent_done');
      });
      await h.run(
        new Agent({ name: 'A', model: h.model([MockModel.text('one')]) }),
        'x',
        { hooks: runHooks },
        runner,
      );
      off();
      await h.run(
        new Agent({ name: 'B', model: h.model([MockModel.text('two')]) }),
        'y',
        { hooks: runHooks },
        runner,
      );
      expect(log).toEqual([
        'runner:agent_started A turn=1 requests=0',
        'runner:agent_done A "one"',
        'run:agent_done',
        'runner:agent_started B turn=1 requests=0',
        'runner:agent_done B "two"',
      ]);
    });
  });

  test('a hook that throws fails the run', async () => {
    await bothWays(async (h) => {
      const hooks = new RunHooks();
      hooks.on('agent_started', () => {
        throw new Error('hook broke');
      });
      const model = h.model([MockModel.text('never')]);
      await expect(h.run(new Agent({ name: 'A', model }), 'x', { hooks })).rejects.toThrow('hook broke');
      expect(model.callCount).toBe(0);
    });
  });
});
