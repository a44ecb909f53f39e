import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession, ReportedPlaybackTracker } from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { lookup } from './fixtures.js';

const agent = new Agent({ name: 'Helper', tools: [lookup] });

async function setup(options: { reported?: boolean } = {}) {
  const clock = new ManualClock();
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(agent, {
    model,
    clock,
    reconnect: false,
    ...(options.reported && { playbackTracker: new ReportedPlaybackTracker() }),
  });
  const log = new EventRecorder(session);
  await session.connect();
  return { clock, model, session, log };
}

describe('turn_done: one per response, once the listener is done with it', () => {
  test('a message followed by a function call in the same response, then the follow-up', async () => {
    const { clock, model, session, log } = await setup();
    model.respondWith(
      {
        output: [
          { type: 'message', text: 'Let me look that up.', audio: { ms: 400 } },
          { type: 'function_call', name: 'lookup', arguments: { q: 'x' }, callId: 'call_1' },
        ],
      },
      { output: [{ type: 'message', text: 'Found x.', audio: { ms: 200 } }] },
    );
    const first = await session.generateResponse();
    await flushMicrotasks();
    const [done1, done2] = log.of('response_done');
    expect(done1?.responseId).toBe(first);
    expect(done2).toBeDefined();
    // Both responses ended, but their audio is still playing (the clock has not moved).
    expect(log.of('turn_done')).toEqual([]);
    await clock.advance(400);
    const itemId = log.of('audio').find((e) => e.responseId === first)!.itemId;
    expect(log.of('turn_done')).toEqual([
      {
        type: 'turn_done',
        responseId: first,
        agent,
        status: 'completed',
        outcome: 'full',
        transcript: 'Let me look that up.',
        messages: [{ itemId, outcome: 'full', text: 'Let me look that up.' }],
        toolCalls: [{ callId: 'call_1', name: 'lookup' }],
      },
    ]);
    await clock.advance(200);
    expect(log.of('turn_done').map((e) => [e.responseId, e.outcome, e.transcript, e.toolCalls])).toEqual([
      [first, 'full', 'Let me look that up.', [{ callId: 'call_1', name: 'lookup' }]],
      [done2!.responseId, 'full', 'Found x.', []],
    ]);
    // After the response_done of its response.
    const types = log.types();
    expect(types.indexOf('turn_done')).toBeGreaterThan(types.indexOf('response_done'));
    await clock.advance(10_000);
    session.interrupt();
    await flushMicrotasks();
    expect(log.of('turn_done')).toHaveLength(2);
    await session.close();
    expect(log.of('turn_done')).toHaveLength(2);
    model.assertComplete();
  });

  test('interrupted mid-message: cancelled, partial, with the heard text and milliseconds', async () => {
    const { clock, model, session, log } = await setup();
    model.respondWith({
      output: [
        { type: 'message', text: 'One two three four five six seven eight nine ten', audio: { ms: 1000 } },
        { type: 'pause' },
      ],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    await clock.advance(300);
    session.interrupt();
    session.interrupt();
    await flushMicrotasks();
    const itemId = log.of('audio')[0]!.itemId;
    const item = session.history.find((i) => i.itemId === itemId);
    expect(item).toMatchObject({ interrupted: true, heardMs: 300 });
    const heardText = item?.type === 'message' ? item.heardText : undefined;
    expect(heardText).toBeTruthy();
    expect(log.of('turn_done')).toEqual([
      {
        type: 'turn_done',
        responseId,
        agent,
        status: 'cancelled',
        reason: 'client_cancelled',
        outcome: 'partial',
        transcript: heardText,
        messages: [
          {
            itemId,
            outcome: 'partial',
            text: 'One two three four five six seven eight nine ten',
            heardText,
            heardMs: 300,
          },
        ],
        toolCalls: [],
      },
    ]);
    await clock.advance(5_000);
    expect(log.of('turn_done')).toHaveLength(1);
    await session.close();
  });

  test('interrupted after the response ended, while its audio still plays: the honest outcome', async () => {
    const { clock, model, session, log } = await setup();
    model.respondWith({
      output: [
        { type: 'message', text: 'First sentence here.', audio: { ms: 300 } },
        { type: 'message', text: 'Second sentence is longer than that.', audio: { ms: 800 } },
      ],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    expect(log.of('response_done')).toMatchObject([{ responseId, status: 'completed' }]);
    await clock.advance(500);
    expect(log.of('turn_done')).toEqual([]);
    session.interrupt();
    await flushMicrotasks();
    const [first, second] = [...new Set(log.of('audio').map((e) => e.itemId))];
    const done = log.of('turn_done');
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({
      responseId,
      status: 'completed',
      outcome: 'partial',
      messages: [
        { itemId: first, outcome: 'full', text: 'First sentence here.' },
        { itemId: second, outcome: 'partial', heardMs: 200 },
      ],
    });
    const heard = done[0]!.messages[1];
    expect(heard?.outcome === 'partial' && heard.heardText).toBeTruthy();
    expect(done[0]!.transcript).toBe(
      `First sentence here. ${heard?.outcome === 'partial' ? heard.heardText : ''}`,
    );
    await session.close();
  });

  test('interrupted before anything was heard: skipped, nothing in the transcript', async () => {
    const { model, session, log } = await setup();
    model.respondWith({
      output: [{ type: 'message', text: 'Never heard.', audio: { ms: 400 } }, { type: 'pause' }],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    session.interrupt();
    await flushMicrotasks();
    const itemId = log.of('audio')[0]!.itemId;
    expect(log.of('turn_done')).toEqual([
      expect.objectContaining({
        responseId,
        status: 'cancelled',
        outcome: 'skipped',
        transcript: '',
        messages: [{ itemId, outcome: 'skipped', text: 'Never heard.' }],
      }),
    ]);
    await session.close();
  });

  test('an app that plays the audio itself: the turn is done when it reports the end', async () => {
    const { model, session, log } = await setup({ reported: true });
    model.respondWith({ output: [{ type: 'message', text: 'Reported.', audio: { ms: 300 } }] });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    const itemId = log.of('audio')[0]!.itemId;
    session.playback.played(itemId, 200);
    await flushMicrotasks();
    expect(log.of('turn_done')).toEqual([]);
    session.playback.finished(itemId);
    await flushMicrotasks();
    expect(log.of('turn_done')).toEqual([
      expect.objectContaining({ responseId, outcome: 'full', transcript: 'Reported.' }),
    ]);
    session.playback.finished(itemId);
    await flushMicrotasks();
    expect(log.of('turn_done')).toHaveLength(1);
    await session.close();
  });

  test('a turn still playing when the session closes ends with what was heard', async () => {
    const { clock, model, session, log } = await setup();
    model.respondWith({ output: [{ type: 'message', text: 'Cut by close.', audio: { ms: 500 } }] });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    await clock.advance(100);
    await session.close();
    expect(log.of('turn_done')).toEqual([
      expect.objectContaining({
        responseId,
        status: 'completed',
        outcome: 'partial',
        messages: [expect.objectContaining({ outcome: 'partial', heardMs: 100 })],
      }),
    ]);
    expect(log.types().slice(-2)).toEqual(['agent_done', 'connection_status']);
  });

  test('a response cut by a lost connection: turn_done after its response_done, failed', async () => {
    const { clock, model, session, log } = await setup();
    model.respondWith({
      output: [{ type: 'message', text: 'Lost midway.', audio: { ms: 600 } }, { type: 'pause' }],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    await clock.advance(200);
    model.connection.disconnect('network down');
    await flushMicrotasks();
    expect(log.of('turn_done')).toEqual([
      expect.objectContaining({
        responseId,
        status: 'failed',
        reason: 'connection_lost',
        outcome: 'partial',
        messages: [expect.objectContaining({ outcome: 'partial', heardMs: 200 })],
      }),
    ]);
    const types = log.types();
    expect(types.indexOf('turn_done')).toBe(types.indexOf('response_done') + 1);
    await session.close();
  });

  test('an ephemeral response is no turn of the conversation: no turn_done', async () => {
    const { clock, model, session, log } = await setup();
    model.respondWith({ output: [{ type: 'message', text: 'Code 1234.', audio: { ms: 200 } }] });
    const reply = session.generateResponse({ addToHistory: false });
    await reply.done;
    await clock.advance(1_000);
    expect(log.of('response_done')).toHaveLength(1);
    expect(log.of('turn_done')).toEqual([]);
    await session.close();
  });
});
