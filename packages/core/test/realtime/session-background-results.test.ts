import { EventRecorder } from '@parley/conformance';
import { Agent, backgroundResult, RealtimeSession, Runner, tool } from '@parley/core';
import { flushMicrotasks, MockModel, MockRealtimeModel, type MockResponseStep } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const track = tool({
  name: 'track',
  description: 'Where a parcel is; the model need not speak up for it',
  parameters: z.object({ id: z.string() }),
  execute: ({ id }) => backgroundResult({ id, at: 'depot' }),
});
const weather = tool({
  name: 'weather',
  description: 'The weather',
  parameters: z.object({}),
  execute: () => 'sunny',
});
const guarded = tool({
  name: 'guarded',
  description: 'Needs approval',
  parameters: z.object({}),
  needsApproval: true,
  execute: () => backgroundResult('noted'),
});

const call = (name: string, callId: string, extra: object = {}): MockResponseStep => ({
  type: 'function_call',
  name,
  arguments: name === 'track' ? { id: 'p1' } : {},
  callId,
  ...extra,
});

async function run(steps: MockResponseStep[], ...later: string[]) {
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(new Agent({ name: 'Clerk', tools: [track, weather, guarded] }), {
    model,
  });
  const log = new EventRecorder(session);
  model.respondWith({ output: steps }, ...later);
  await session.connect();
  await session.generateResponse();
  await flushMicrotasks();
  // Follow-ups: the createResponse commands after the app's own.
  const followUps = () => model.commands.filter((c) => c.type === 'createResponse').length - 1;
  return { model, session, log, followUps };
}

describe('a tool that returns backgroundResult(value)', () => {
  test('its output goes to the model and no response is requested', async () => {
    const { model, session, log, followUps } = await run([call('track', 'call_1')]);
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toEqual([
      { type: 'sendToolOutput', callId: 'call_1', output: '{"id":"p1","at":"depot"}' },
    ]);
    expect(followUps()).toBe(0);
    expect(log.of('tool_done')).toEqual([
      expect.objectContaining({ callId: 'call_1', status: 'completed', background: true }),
    ]);
    expect(session.history.find((i) => i.type === 'function_call')).toMatchObject({
      output: '{"id":"p1","at":"depot"}',
      status: 'completed',
    });
    expect(log.of('response_done')).toHaveLength(1);
    // The call id still runs once: delivered again, nothing more is sent.
    model.respondWith({ output: [call('track', 'call_1')] });
    await session.generateResponse();
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toHaveLength(1);
    expect(followUps()).toBe(1); // that second generateResponse, nothing else
    await session.close();
  });

  test('parallel calls that are all background start no follow-up', async () => {
    const { followUps, model, session } = await run([call('track', 'call_1'), call('track', 'call_2')]);
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toHaveLength(2);
    expect(followUps()).toBe(0);
    await session.close();
  });

  test('a mixed group (background and ordinary) gets exactly one follow-up', async () => {
    const { followUps, log, session } = await run(
      [call('track', 'call_1'), call('weather', 'call_2'), call('track', 'call_3')],
      'Sunny, and your parcel is at the depot.',
    );
    await flushMicrotasks();
    expect(followUps()).toBe(1);
    expect(log.of('response_done')).toHaveLength(2);
    expect(log.of('tool_done').map((e) => [e.callId, e.background ?? false])).toEqual([
      ['call_1', true],
      ['call_2', false],
      ['call_3', true],
    ]);
    await session.close();
  });

  test('calls without a response id: a background output starts none, an ordinary one its own', async () => {
    const { followUps, session } = await run(
      [
        call('track', 'call_1', { withoutResponseId: true }),
        call('weather', 'call_2', { withoutResponseId: true }),
      ],
      'It is sunny.',
    );
    await flushMicrotasks();
    expect(followUps()).toBe(1);
    await session.close();
  });

  test('after an approval it is still background; a rejection is answered', async () => {
    const approved = await run([call('guarded', 'call_1')]);
    await approved.log.waitFor('tool_approval_requested');
    approved.session.approve('call_1');
    await approved.log.waitFor('tool_done');
    await flushMicrotasks();
    expect(approved.log.of('tool_done')).toEqual([
      expect.objectContaining({ output: 'noted', background: true }),
    ]);
    expect(approved.followUps()).toBe(0);
    await approved.session.close();

    const rejected = await run([call('guarded', 'call_1')], 'Understood, I will not.');
    await rejected.log.waitFor('tool_approval_requested');
    rejected.session.reject('call_1');
    await rejected.log.waitFor('response_done', () => true, 2);
    expect(rejected.followUps()).toBe(1);
    expect(rejected.log.of('tool_done')[0]?.background).toBeUndefined();
    await rejected.session.close();
  });
});

describe('in a Runner run', () => {
  test('a background result is the plain value: the model gets it on its next turn as usual', async () => {
    const model = new MockModel([
      MockModel.toolCall('track', { id: 'p9' }),
      MockModel.text('It is at the depot.'),
    ]);
    const result = await new Runner().run(
      new Agent({ name: 'Clerk', tools: [track], model }),
      'Where is p9?',
    );
    expect(result.finalOutput).toBe('It is at the depot.');
    const secondInput = JSON.stringify(model.requests[1]);
    expect(secondInput).toContain(JSON.stringify('{"id":"p9","at":"depot"}').slice(1, -1));
  });
});
