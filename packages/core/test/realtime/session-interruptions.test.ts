import { deferred, EventRecorder } from '@parley/conformance';
import {
  Agent,
  PCM16_BYTES_PER_MS,
  type PlaybackTracker,
  type RealtimeCapabilities,
  RealtimeSession,
  type RealtimeSessionOptions,
  ReportedPlaybackTracker,
  tool,
  UserError,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel, mockPcm16 } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const agent = new Agent({ name: 'Speaker' });

async function connected(
  options: Omit<RealtimeSessionOptions, 'model'> & { capabilities?: Partial<RealtimeCapabilities> } = {},
  sessionAgent: Agent = agent,
) {
  const { capabilities, ...rest } = options;
  const model = new MockRealtimeModel(capabilities ? { capabilities } : {});
  const clock = rest.clock instanceof ManualClock ? rest.clock : new ManualClock();
  const session = new RealtimeSession(sessionAgent, { model, clock, ...rest });
  const log = new EventRecorder(session);
  await session.connect();
  return { model, session, log, clock };
}

const edits = (model: MockRealtimeModel) =>
  model.commands.filter(
    (c) => c.type === 'truncateItem' || c.type === 'deleteItem' || c.type === 'cancelResponse',
  );

describe('the interruption position', () => {
  test('is clamped to the audio received: a clock far ahead cuts at what arrived so far', async () => {
    const { model, session, log, clock } = await connected();
    model.respondWith({
      output: [{ type: 'message', text: 'One two three four five', audio: { ms: 500 }, pauseAfterChunks: 2 }],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    await clock.advance(5000);
    session.interrupt();
    await flushMicrotasks();
    const itemId = log.of('audio')[0]!.itemId;
    expect(edits(model)).toEqual([
      { type: 'cancelResponse', responseId },
      { type: 'truncateItem', itemId, heardMs: 200 },
    ]);
    expect(log.of('error')).toEqual([]);
    await session.close();
  });

  test('is whole milliseconds, floored, for reported and odd-sized audio alike', async () => {
    const { model, session, log } = await connected({ playbackTracker: new ReportedPlaybackTracker() });
    // 100.5 ms of audio: the session may cut at 100 at most.
    const odd = mockPcm16(101).subarray(0, 100.5 * PCM16_BYTES_PER_MS);
    model.respondWith({ output: [{ type: 'message', text: 'Odd.', audio: [odd, odd] }, { type: 'pause' }] });
    await session.generateResponse();
    await flushMicrotasks();
    const itemId = log.of('audio')[0]!.itemId;
    session.playback.played(itemId, 73.9);
    session.interrupt();
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type === 'truncateItem')).toEqual([
      { type: 'truncateItem', itemId, heardMs: 73 },
    ]);
    expect(session.playback.playedMs(itemId)).toBe(73);
    await session.close();
  });
});

describe('one interruption path', () => {
  test('the provider is corrected before the app hears of it: a reply still coming and one still playing', async () => {
    const { model, session, log, clock } = await connected();
    const seenAtEvent: unknown[][] = [];
    session.on('audio_interrupted', () => seenAtEvent.push(edits(model)));

    model.respondWith({
      output: [{ type: 'message', text: 'Still coming', audio: { ms: 500 }, pauseAfterChunks: 2 }],
    });
    const coming = await session.generateResponse();
    await flushMicrotasks();
    await clock.advance(50);
    session.interrupt();
    const comingItem = log.of('audio')[0]!.itemId;
    expect(seenAtEvent).toEqual([
      [
        { type: 'cancelResponse', responseId: coming },
        { type: 'truncateItem', itemId: comingItem, heardMs: 50 },
      ],
    ]);
    await flushMicrotasks();

    // A reply the provider finished whose audio is still playing: nothing to cancel, the cut still comes first.
    model.respondWith({ output: [{ type: 'message', text: 'Done, still playing', audio: { ms: 300 } }] });
    const playing = await session.generateResponse();
    await flushMicrotasks();
    expect(log.of('response_done').map((e) => e.responseId)).toContain(playing);
    const playingItem = log.of('audio').at(-1)!.itemId;
    await clock.advance(120);
    session.interrupt();
    expect(seenAtEvent[1]).toEqual([
      { type: 'cancelResponse', responseId: coming },
      { type: 'truncateItem', itemId: comingItem, heardMs: 50 },
      { type: 'truncateItem', itemId: playingItem, heardMs: 120 },
    ]);
    await session.close();
  });

  test('interrupt(), speech and the app stopping playback together send one cancel and one audio_interrupted', async () => {
    const { model, session, log, clock } = await connected({
      config: { turnDetection: { interruptResponse: false } },
    });
    model.respondWith({
      output: [{ type: 'message', text: 'Hello there friend', audio: { ms: 600 }, pauseAfterChunks: 3 }],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    await clock.advance(120);
    session.interrupt();
    model.connection.userStartsSpeaking();
    session.playback.interrupted();
    await flushMicrotasks();
    session.interrupt();
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type === 'cancelResponse')).toEqual([
      { type: 'cancelResponse', responseId },
    ]);
    expect(log.of('audio_interrupted')).toHaveLength(1);
    expect(model.commands.filter((c) => c.type === 'truncateItem')).toEqual([
      expect.objectContaining({ heardMs: 120 }),
    ]);
    await session.close();
  });

  test('speech with the provider not cancelling by itself (interruptResponse: false): the session cancels by id', async () => {
    const { model, session, clock } = await connected({
      config: { turnDetection: { interruptResponse: false } },
    });
    model.respondWith({
      output: [{ type: 'message', text: 'Wait', audio: { ms: 400 }, pauseAfterChunks: 2 }],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    await clock.advance(50);
    model.connection.userStartsSpeaking();
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type === 'cancelResponse')).toEqual([
      { type: 'cancelResponse', responseId },
    ]);
    await session.close();
  });

  test('audio, transcript and text arriving for a stopped response are dropped, not played or shown', async () => {
    const { model, session, log, clock } = await connected();
    model.respondWith({
      output: [{ type: 'message', text: 'First words then more', audio: { ms: 400 }, pauseAfterChunks: 2 }],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    const itemId = log.of('audio')[0]!.itemId;
    await clock.advance(100);
    const before = { audio: log.of('audio').length, transcript: log.of('transcript_delta').length };
    session.interrupt();
    // The provider had more in flight before it saw the cancel.
    model.connection.emit({ type: 'audio_delta', responseId, itemId, audio: mockPcm16(100) });
    model.connection.emit({ type: 'transcript_delta', responseId, itemId, delta: 'unheard words' });
    model.connection.emit({ type: 'audio_done', responseId, itemId });
    model.connection.emit({
      type: 'transcript_done',
      responseId,
      itemId,
      transcript: 'First words unheard words',
    });
    await flushMicrotasks();
    expect(log.of('audio')).toHaveLength(before.audio);
    expect(log.of('transcript_delta')).toHaveLength(before.transcript);
    expect(log.of('audio_done')).toEqual([]);
    const message = session.history.find((i) => i.itemId === itemId);
    expect(message).toMatchObject({ interrupted: true });
    expect(message?.type === 'message' && message.text).not.toContain('unheard');
    expect(model.commands.filter((c) => c.type === 'truncateItem')).toEqual([
      expect.objectContaining({ itemId, heardMs: 100 }),
    ]);
    await session.close();
  });

  test('tool results of an interrupted response are kept: computed and still-running outputs both go to the model', async () => {
    const slow = deferred<string>();
    const quick = tool({
      name: 'quick',
      description: 'Answers at once',
      parameters: z.object({}),
      execute: () => 'quick result',
    });
    const later = tool({
      name: 'later',
      description: 'Answers later',
      parameters: z.object({}),
      execute: () => slow.promise,
    });
    const { model, session, log, clock } = await connected(
      { capabilities: { autoToolResponseGeneration: false } },
      new Agent({ name: 'Worker', tools: [quick, later] }),
    );
    model.respondWith({
      output: [
        { type: 'function_call', name: 'quick', callId: 'call_q' },
        { type: 'function_call', name: 'later', callId: 'call_l' },
        { type: 'message', text: 'Working on it', audio: { ms: 400 }, pauseAfterChunks: 1 },
      ],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    await clock.advance(50);
    session.interrupt();
    await flushMicrotasks();
    slow.resolve('late result');
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type === 'sendToolOutput')).toEqual([
      { type: 'sendToolOutput', callId: 'call_q', output: 'quick result' },
      { type: 'sendToolOutput', callId: 'call_l', output: 'late result' },
    ]);
    expect(session.history.filter((i) => i.type === 'function_call').map((i) => i.output)).toEqual([
      'quick result',
      'late result',
    ]);
    // The interrupted response gets no follow-up: the outputs wait in the conversation for the next turn.
    expect(model.commands.filter((c) => c.type === 'createResponse')).toHaveLength(1);
    expect(log.of('response_done').at(-1)).toMatchObject({ responseId, status: 'cancelled' });
    await session.close();
  });

  test('a text-only response: a finished message stays, nothing is truncated', async () => {
    const { model, session, log } = await connected({ capabilities: { audioOutput: false } });
    model.respondWith({ output: [{ type: 'message', text: 'Shown in full.' }, { type: 'pause' }] });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    session.interrupt();
    await flushMicrotasks();
    expect(edits(model)).toEqual([{ type: 'cancelResponse', responseId }]);
    expect(log.of('audio_interrupted')).toEqual([]);
    expect(session.history.at(-1)).toMatchObject({ text: 'Shown in full.', interrupted: false });
    await session.close();
  });

  test('a message the provider starts after the interrupt never enters history and is never played', async () => {
    const { model, session, log, clock } = await connected({
      capabilities: { messageTruncation: false, mutableChatContext: false },
    });
    model.respondWith({ output: [{ type: 'message', text: 'Hi', audio: { ms: 300 }, pauseAfterChunks: 1 }] });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    await clock.advance(50);
    session.interrupt();
    model.connection.emit({ type: 'message_started', responseId, itemId: 'item_late' });
    model.connection.emit({ type: 'audio_delta', responseId, itemId: 'item_late', audio: mockPcm16(100) });
    model.connection.emit({ type: 'transcript_delta', responseId, itemId: 'item_late', delta: 'late' });
    await flushMicrotasks();
    expect(log.of('history_added').map((e) => e.item.itemId)).not.toContain('item_late');
    expect(log.of('audio').map((e) => e.itemId)).not.toContain('item_late');
    expect(log.of('warning').map((w) => [w.code, w.itemId])).toEqual([
      ['message_not_truncated', log.of('audio')[0]!.itemId],
      ['message_not_removed', 'item_late'],
    ]);
    await session.close();
  });
});

describe('playback reporting', () => {
  test('with a ReportedPlaybackTracker only reports count; playback.interrupted() stops the reply like interrupt()', async () => {
    const { model, session, log, clock } = await connected({
      playbackTracker: new ReportedPlaybackTracker(),
    });
    model.respondWith({
      output: [{ type: 'message', text: 'Reported playback', audio: { ms: 500 }, pauseAfterChunks: 4 }],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    const itemId = log.of('audio')[0]!.itemId;
    await clock.advance(10_000);
    expect(session.playback.playedMs(itemId)).toBe(0);
    session.playback.played(itemId, 260);
    session.playback.interrupted();
    await flushMicrotasks();
    expect(edits(model)).toEqual([
      { type: 'cancelResponse', responseId },
      { type: 'truncateItem', itemId, heardMs: 260 },
    ]);
    expect(log.of('audio_interrupted')).toEqual([
      { type: 'audio_interrupted', responseId, itemId, heardMs: 260 },
    ]);
    await session.close();
  });

  test('a custom tracker is asked for the position; the session still clamps what it says', async () => {
    const calls: string[] = [];
    const custom: PlaybackTracker = {
      audioReceived: (itemId, ms) => calls.push(`received ${itemId} ${ms}`),
      played: () => {},
      finished: () => {},
      playedMs: () => 123.9,
      stopped: () => calls.push('stopped'),
      reset: () => calls.push('reset'),
    };
    const { model, session, log } = await connected({ playbackTracker: custom });
    model.respondWith({
      output: [{ type: 'message', text: 'Custom', audio: { ms: 300 }, pauseAfterChunks: 3 }],
    });
    await session.generateResponse();
    await flushMicrotasks();
    const itemId = log.of('audio')[0]!.itemId;
    expect(session.playback.tracker).toBe(custom);
    session.interrupt();
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type === 'truncateItem')).toEqual([
      expect.objectContaining({ itemId, heardMs: 123 }),
    ]);
    expect(calls).toEqual([
      `received ${itemId} 100`,
      `received ${itemId} 100`,
      `received ${itemId} 100`,
      'stopped',
    ]);
    await session.close();
    expect(calls.at(-1)).toBe('reset');
  });

  test('bad reports and bad trackers are typed errors', async () => {
    const { session } = await connected();
    expect(() => session.playback.played('item_1', -5)).toThrow(UserError);
    expect(() => session.playback.played('', 5)).toThrow(/itemId of an audio event/);
    expect(() => session.playback.finished(undefined as unknown as string)).toThrow(UserError);
    await session.close();
    expect(
      () =>
        new RealtimeSession(agent, {
          model: new MockRealtimeModel(),
          playbackTracker: { playedMs: () => 0 } as unknown as PlaybackTracker,
        }),
    ).toThrow(expect.objectContaining({ code: 'invalid_session_options' }));
  });
});

describe('capabilities the provider lacks', () => {
  test('no messageTruncation: a partly heard message stays whole, with a warning naming it', async () => {
    const { model, session, log, clock } = await connected({ capabilities: { messageTruncation: false } });
    model.respondWith({
      output: [{ type: 'message', text: 'Half', audio: { ms: 400 }, pauseAfterChunks: 2 }],
    });
    await session.generateResponse();
    await flushMicrotasks();
    await clock.advance(90);
    session.interrupt();
    await flushMicrotasks();
    const itemId = log.of('audio')[0]!.itemId;
    expect(model.commands.some((c) => c.type === 'truncateItem')).toBe(false);
    expect(log.of('warning')).toEqual([
      {
        type: 'warning',
        code: 'message_not_truncated',
        itemId,
        message: expect.stringMatching(
          new RegExp(`${itemId} stays in the provider's context in full.*90 ms`),
        ),
      },
    ]);
    expect(session.history.find((i) => i.itemId === itemId)).toMatchObject({ interrupted: true });
    expect(log.of('error')).toEqual([]);
    await session.close();
  });

  test('no mutableChatContext: a never-heard message is truncated at 0 instead of deleted', async () => {
    const { model, session, log } = await connected({ capabilities: { mutableChatContext: false } });
    model.respondWith({
      output: [{ type: 'message', text: 'Unheard', audio: { ms: 300 }, pauseAfterChunks: 2 }],
    });
    await session.generateResponse();
    await flushMicrotasks();
    session.interrupt();
    await flushMicrotasks();
    const itemId = log.of('audio')[0]!.itemId;
    expect(model.commands.filter((c) => c.type === 'truncateItem' || c.type === 'deleteItem')).toEqual([
      { type: 'truncateItem', itemId, heardMs: 0 },
    ]);
    expect(session.history.some((i) => i.itemId === itemId)).toBe(false);
    expect(log.of('warning')).toEqual([]);
    await session.close();
  });

  test('neither: the never-heard message stays in the provider context, with a warning naming it', async () => {
    const { model, session, log } = await connected({
      capabilities: { mutableChatContext: false, messageTruncation: false },
    });
    model.respondWith({
      output: [{ type: 'message', text: 'Unheard', audio: { ms: 300 }, pauseAfterChunks: 2 }],
    });
    await session.generateResponse();
    await flushMicrotasks();
    session.interrupt();
    await flushMicrotasks();
    const itemId = log.of('audio')[0]!.itemId;
    expect(model.commands.some((c) => c.type === 'truncateItem' || c.type === 'deleteItem')).toBe(false);
    expect(log.of('warning').map((w) => [w.code, w.itemId])).toEqual([['message_not_removed', itemId]]);
    expect(model.connection.conversation.some((i) => i.itemId === itemId)).toBe(true);
    await session.close();
  });
});
