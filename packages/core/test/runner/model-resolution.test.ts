import { Agent, Runner, UserError } from '@parley/core';
import { MockModel, MockModelProvider } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { bothWays } from './both-ways.js';

describe('model resolution', () => {
  test("the run's model overrides the runner's, which overrides the agent's own", async () => {
    await bothWays(async (h) => {
      const own = h.model([MockModel.text('own')]);
      const runModel = h.model([MockModel.text('run')]);
      const runnerModel = h.model([MockModel.text('runner')]);
      const runner = new Runner({ model: runnerModel });
      const agent = new Agent({ name: 'A', model: own });
      expect((await h.run(agent, 'x', { model: runModel }, runner)).finalOutput).toBe('run');
      expect((await h.run(agent, 'x', {}, runner)).finalOutput).toBe('runner');
      expect((await h.run(agent, 'x')).finalOutput).toBe('own');
    });
  });

  test('a model name goes through the provider; the run option beats the runner config', async () => {
    await bothWays(async (h) => {
      const fast = h.model([MockModel.text('fast')]);
      const smart = h.model([MockModel.text('smart')]);
      const fallback = h.model([MockModel.text('default'), MockModel.text('runner model')]);
      const provider = new MockModelProvider({ models: { fast, smart }, defaultModel: fallback });
      const runner = new Runner({ modelProvider: provider });
      expect((await h.run(new Agent({ name: 'A', model: 'fast' }), 'x', {}, runner)).finalOutput).toBe(
        'fast',
      );
      expect((await h.run(new Agent({ name: 'B' }), 'x', { model: 'smart' }, runner)).finalOutput).toBe(
        'smart',
      );
      expect((await h.run(new Agent({ name: 'C' }), 'x', {}, runner)).finalOutput).toBe('default');
      const runnerWithModel = new Runner({ modelProvider: provider, model: fallback });
      expect((await h.run(new Agent({ name: 'D' }), 'x', {}, runnerWithModel)).finalOutput).toBe(
        'runner model',
      );
    });
  });

  test('no model anywhere, or a name without a provider, is a UserError before any call', async () => {
    await bothWays(async (h) => {
      await expect(h.run(new Agent({ name: 'A' }), 'x')).rejects.toThrow(
        expect.objectContaining({
          code: 'model_not_configured',
          message: expect.stringContaining('has no model'),
        }),
      );
      const named = new Agent({ name: 'A', model: 'gpt-x' });
      await expect(h.run(named, 'x')).rejects.toThrow(UserError);
      await expect(h.run(named, 'x')).rejects.toThrow(/no modelProvider/);
      const fast = h.model();
      const provider = new MockModelProvider({ models: { fast } });
      await expect(
        h.run(new Agent({ name: 'A', model: 'slow' }), 'x', { modelProvider: provider }),
      ).rejects.toThrow(
        expect.objectContaining({ code: 'model_not_found', message: expect.stringContaining('Known: fast') }),
      );
      expect(fast.callCount).toBe(0);
    });
  });

  test('after a handoff the new agent resolves its own model', async () => {
    await bothWays(async (h) => {
      const provider = new MockModelProvider({
        models: { billing: h.model([MockModel.text('billing model')]) },
        defaultModel: h.model([MockModel.handoff('Billing')]),
      });
      const billing = new Agent({ name: 'Billing', model: 'billing' });
      const triage = new Agent({ name: 'Triage', handoffs: [billing] });
      const result = await h.run(triage, 'x', { modelProvider: provider });
      expect(result.finalOutput).toBe('billing model');
    });
  });
});
