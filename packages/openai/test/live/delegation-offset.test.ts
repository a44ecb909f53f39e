import { EventRecorder, settlesWithin } from '@parley/conformance';
import { Agent, RealtimeSession } from '@parley/core';
import { ManualClock, MockModel } from '@parley/mock';
import { OpenAILiveModel } from '@parley/openai';
import { expect, test } from 'vitest';
import { closeAfterTest, scriptedLivePeer, type Wire } from './scripted-live-peer.js';

// The service's wire as a scripted peer: the order these events arrive in is the point of the test, and the
// simulator (which end-points each utterance before it delegates) never sends words past the offset first.

const words = (delta: string, startMs: number, endMs: number): Wire => ({
  type: 'session.input_transcript.delta',
  delta,
  start_ms: startMs,
  end_ms: endMs,
});

/** A GPT-Live voice at `url` that delegates to an agent on `backend`, its events recorded. */
function delegating(url: string, backend: MockModel) {
  const session = closeAfterTest(
    new RealtimeSession(new Agent({ name: 'Voice' }), {
      model: new OpenAILiveModel({ apiKey: 'sk-test', url, clock: new ManualClock() }),
      delegate: new Agent({ name: 'Ops', model: backend }),
    }),
  );
  return { session, events: new EventRecorder(session, { via: 'listeners' }) };
}

test('the delegate hears what was said up to the delegation offset; words past it (arriving first) are the next turn', async () => {
  const peer = await scriptedLivePeer('live_offset', [
    words('Check staging', 0, 600),
    words(' and tell me a joke', 900, 1500),
    {
      type: 'session.delegation.created',
      offset_ms: 700,
      delegation: { id: 'dlg_1', type: 'delegation', target: 'client' },
    },
  ]);
  const backend = new MockModel([MockModel.text('Staging is healthy.')]);
  const { session, events } = delegating(peer.url, backend);
  await session.connect();
  expect((await events.waitFor('delegation_done')).output).toBe('Staging is healthy.');

  const asked = JSON.stringify(backend.requests[0]?.input);
  expect(asked).toContain('Check staging');
  expect(asked).not.toContain('joke');
  const users = session.history.flatMap((i) =>
    i.type === 'message' && i.role === 'user' ? [[i.text, i.status]] : [],
  );
  expect(users).toEqual([
    ['Check staging', 'completed'],
    [' and tell me a joke', 'in_progress'],
  ]);
  expect(
    await settlesWithin(peer.receivedOfType('session.commentary.append'), 'the commentary'),
  ).toMatchObject({ delegation_id: 'dlg_1', content: 'Staging is healthy.' });
});

test('a turn that ends before the offset goes to the delegate whole', async () => {
  const peer = await scriptedLivePeer('live_offset', [
    words('Is staging', 0, 300),
    words(' healthy?', 300, 700),
    {
      type: 'session.delegation.created',
      offset_ms: 900,
      delegation: { id: 'dlg_2', type: 'delegation', target: 'client' },
    },
  ]);
  const backend = new MockModel([MockModel.text('Yes.')]);
  const { session, events } = delegating(peer.url, backend);
  await session.connect();
  await events.waitFor('delegation_done');
  expect(JSON.stringify(backend.requests[0]?.input)).toContain('Is staging healthy?');
  expect(session.history.filter((i) => i.type === 'message' && i.role === 'user')).toHaveLength(1);
});
