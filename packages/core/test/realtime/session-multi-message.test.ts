import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession } from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel, mockPcm16 } from '@parley/mock';
import { describe, expect, test } from 'vitest';

const agent = new Agent({ name: 'Chatterbox' });

async function connected() {
  const clock = new ManualClock();
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(agent, { model, clock });
  const log = new EventRecorder(session);
  await session.connect();
  return { model, session, log, clock };
}

describe('several messages in one response', () => {
  test('each is played after the one before it and ends full, partial (at its own position) or skipped', async () => {
    const { model, session, log, clock } = await connected();
    model.respondWith({
      output: [
        { type: 'message', text: 'One.', audio: { ms: 200 } },
        { type: 'message', text: 'Two.', audio: { ms: 200 } },
        { type: 'message', text: 'Three.', audio: { ms: 200 } },
        { type: 'pause' },
      ],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    const [a, b, c] = log.of('audio_done').map((e) => e.itemId) as [string, string, string];
    // Real-time playback: 300 ms in, the first message was heard, the second half-way, the third not at all.
    await clock.advance(300);
    session.interrupt();
    await flushMicrotasks();
    expect(model.commands.filter((cmd) => cmd.type !== 'createResponse')).toEqual([
      { type: 'cancelResponse', responseId },
      { type: 'truncateItem', itemId: b, heardMs: 100 },
      { type: 'truncateItem', itemId: c, heardMs: 0 },
      { type: 'deleteItem', itemId: c },
    ]);
    expect(log.of('audio_interrupted')).toEqual([
      { type: 'audio_interrupted', responseId, itemId: b, heardMs: 100 },
    ]);
    expect(
      session.history.map((i) => (i.type === 'message' ? [i.itemId, i.text, i.interrupted] : i)),
    ).toEqual([
      [a, 'One.', false],
      [b, 'Two.', true],
    ]);
    expect(log.of('history_removed')).toEqual([{ type: 'history_removed', itemId: c }]);
    expect(model.connection.conversation.map((i) => i.itemId)).toEqual([a, b]);
    expect(log.of('warning')).toEqual([]);
    expect(log.of('error')).toEqual([]);
    await session.close();
  });

  test('each message has its own audio, transcript and audio_done, in order', async () => {
    const { model, session, log } = await connected();
    model.respondWith({
      output: [
        { type: 'message', text: 'Alpha beta.', audio: { ms: 200 } },
        { type: 'message', text: 'Gamma delta.', audio: { ms: 300 } },
      ],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    const [a, b] = log.of('audio_done').map((e) => e.itemId) as [string, string];
    const text = (itemId: string) =>
      log
        .of('transcript_delta')
        .filter((d) => d.itemId === itemId)
        .map((d) => d.delta)
        .join('');
    expect([text(a), text(b)]).toEqual(['Alpha beta.', 'Gamma delta.']);
    const ms = (itemId: string) =>
      log
        .of('audio')
        .filter((e) => e.itemId === itemId)
        .reduce((n, e) => n + e.data.byteLength / 48, 0);
    expect([ms(a), ms(b)]).toEqual([200, 300]);
    expect(
      log.events.filter((e) => e.type === 'audio_done' || e.type === 'response_done').map((e) => e.type),
    ).toEqual(['audio_done', 'audio_done', 'response_done']);
    expect(log.of('response_done')[0]).toMatchObject({ responseId, status: 'completed' });
    await session.close();
  });

  test('a provider that interleaves two messages: the second is held until the first is done', async () => {
    const { model, session, log } = await connected();
    const c = model.connection;
    const responseId = 'resp_interleaved';
    c.emit({ type: 'response_started', responseId, ephemeral: false });
    c.emit({ type: 'message_started', responseId, itemId: 'A' });
    c.emit({ type: 'message_started', responseId, itemId: 'B' });
    c.emit({ type: 'audio_delta', responseId, itemId: 'B', audio: mockPcm16(100, 1) });
    c.emit({ type: 'transcript_delta', responseId, itemId: 'B', delta: 'second ' });
    c.emit({ type: 'audio_delta', responseId, itemId: 'A', audio: mockPcm16(100, 2) });
    c.emit({ type: 'transcript_delta', responseId, itemId: 'A', delta: 'first ' });
    c.emit({ type: 'audio_delta', responseId, itemId: 'B', audio: mockPcm16(100, 3) });
    await flushMicrotasks();
    expect(log.of('audio').map((e) => e.itemId)).toEqual(['A']);
    c.emit({ type: 'audio_done', responseId, itemId: 'A' });
    c.emit({
      type: 'message_done',
      responseId,
      itemId: 'A',
      item: {
        type: 'message',
        itemId: 'A',
        role: 'assistant',
        content: [{ type: 'audio', transcript: 'first ' }],
      },
    });
    await flushMicrotasks();
    expect(log.of('audio').map((e) => e.itemId)).toEqual(['A', 'B', 'B']);
    expect(log.of('transcript_delta').map((e) => e.delta)).toEqual(['first ', 'second ']);
    // Whatever is still held when the response ends is delivered before response_done.
    c.emit({ type: 'message_started', responseId, itemId: 'C' });
    c.emit({ type: 'message_started', responseId, itemId: 'D' });
    c.emit({ type: 'audio_delta', responseId, itemId: 'D', audio: mockPcm16(50, 4) });
    c.emit({ type: 'response_done', responseId, status: 'completed', ephemeral: false });
    await flushMicrotasks();
    const order = log.events
      .filter((e) => e.type === 'audio' || e.type === 'response_done')
      .map((e) => (e.type === 'audio' ? e.itemId : e.type));
    expect(order).toEqual(['A', 'B', 'B', 'D', 'response_done']);
    await session.close();
  });
});
