import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MockModel, MockRealtimeModel } from '@parley/mock';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';

// Two installed copies of @parley/core in one app (two versions, or a bundler that did not dedupe): each copy is
// the built package in its own folder, so each has its own classes. Objects made by one copy are handed to the
// other, as an app whose agents come from one package and whose session comes from another would.
// Runs on the built package (turbo builds the dependencies before this package's tests).
type Core = typeof import('@parley/core');

const coreDir = fileURLToPath(new URL('../../packages/core/', import.meta.url));
let root: string;
let a: Core;
let b: Core;

async function copyOfCore(name: string): Promise<Core> {
  const dir = join(root, name);
  cpSync(join(coreDir, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(join(coreDir, 'package.json'), join(dir, 'package.json'));
  // The copy's own dependencies (zod) resolve as an installed copy's would.
  symlinkSync(join(coreDir, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return (await import(pathToFileURL(join(dir, 'dist', 'index.js')).href)) as Core;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'parley-core-copies-'));
  a = await copyOfCore('a');
  b = await copyOfCore('b');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function weatherAgents(core: Core) {
  const weather = core.tool({
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => `Sunny in ${city}`,
  });
  const billing = new core.Agent({ name: 'Billing', instructions: 'You handle billing.' });
  const triage = new core.Agent({
    name: 'Triage',
    instructions: 'You route calls.',
    tools: [weather],
    handoffs: [billing],
  });
  return { triage, billing };
}

describe('two copies of @parley/core work together', () => {
  test('the copies are distinct: their classes are not the same objects', () => {
    expect(a.Agent).not.toBe(b.Agent);
    expect(a.ParleyError).not.toBe(b.ParleyError);
  });

  test("a RealtimeSession of one copy runs the other copy's agent, its tool and its handoff", async () => {
    const { triage, billing } = weatherAgents(a);
    const model = new MockRealtimeModel();
    const session = new b.RealtimeSession(triage, { model });
    const events: string[] = [];
    const toolDone = new Promise<{ output: string }>((resolve) => session.on('tool_done', resolve));
    const handedOff = new Promise<{ to: { name: string } }>((resolve) => session.on('handoff', resolve));
    session.on('agent_started', (e) => events.push(`agent_started ${e.agent.name}`));
    model.respondWith({
      output: [{ type: 'function_call', name: 'get_weather', arguments: { city: 'Oslo' }, callId: 'c1' }],
    });
    await session.connect();
    session.sendMessage('Weather in Oslo?');
    expect((await toolDone).output).toBe('Sunny in Oslo');

    model.respondWith({
      output: [{ type: 'function_call', name: 'transfer_to_billing', arguments: {}, callId: 'c2' }],
    });
    session.sendMessage('I have a billing question.');
    expect((await handedOff).to).toBe(billing);
    expect(events).toEqual(['agent_started Triage', 'agent_started Billing']);
    await session.close();
  });

  test("updateAgent() of one copy takes the other copy's agent", async () => {
    const { triage, billing } = weatherAgents(a);
    const session = new b.RealtimeSession(triage, { model: new MockRealtimeModel() });
    await session.connect();
    await session.updateAgent(billing);
    expect(session.currentAgent).toBe(billing);
    await session.close();
  });

  test("a Runner of one copy runs the other copy's agent and tool", async () => {
    const { triage } = weatherAgents(a);
    const model = new MockModel([
      MockModel.toolCall('get_weather', { city: 'Oslo' }),
      MockModel.text('It is sunny in Oslo.'),
    ]);
    const result = await new b.Runner({ model }).run(triage, 'Weather in Oslo?');
    expect(result.finalOutput).toBe('It is sunny in Oslo.');
  });

  test("a Runner and its results are instances of the other copy's classes", async () => {
    const { triage } = weatherAgents(a);
    const runner = new b.Runner({
      model: new MockModel([MockModel.text('Hi.'), MockModel.text('Hi again.')]),
    });
    expect(runner).toBeInstanceOf(a.Runner);
    const result = await runner.run(triage, 'Hello');
    expect(result).toBeInstanceOf(a.RunResult);
    expect(result).toBeInstanceOf(a.RunResultBase);
    expect(result).not.toBeInstanceOf(a.StreamedRunResult);
    const streamed = await runner.run(triage, 'Hello', { stream: true });
    await streamed.completed;
    expect(streamed).toBeInstanceOf(a.StreamedRunResult);
    expect(streamed).toBeInstanceOf(a.RunResultBase);
    expect(streamed).not.toBeInstanceOf(a.RunResult);
    expect(runner).not.toBeInstanceOf(a.RunResult);
    expect(result).not.toBeInstanceOf(a.Runner);
  });

  test('errors thrown by one copy are instances of the other copy’s classes, with their code', async () => {
    const { triage } = weatherAgents(a);
    const session = new b.RealtimeSession(triage, { model: new MockRealtimeModel() });
    let thrown: unknown;
    try {
      session.sendMessage('not connected yet');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(b.SessionNotConnectedError);
    expect(thrown).toBeInstanceOf(a.SessionNotConnectedError);
    expect(thrown).toBeInstanceOf(a.ParleyError);
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).not.toBeInstanceOf(a.UserError);
    expect(thrown).not.toBeInstanceOf(a.SessionClosedError);
    expect((thrown as InstanceType<Core['ParleyError']>).code).toBe('session_not_connected');
    await session.close();
  });

  test('a subclass an app declares is checked by its own prototype chain', () => {
    class AppError extends a.UserError {}
    expect(new AppError('x')).toBeInstanceOf(b.UserError);
    expect(new b.UserError('x')).not.toBeInstanceOf(AppError);
  });
});
