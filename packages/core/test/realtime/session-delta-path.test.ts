import { Agent, RealtimeSession } from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel, mockPcm16 } from '@parley/mock';
import { describe, expect, test } from 'vitest';

const agent = new Agent({ name: 'Narrator' });

async function connected() {
  const clock = new ManualClock();
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(agent, { model, clock });
  await session.connect();
  return { model, session, clock, c: model.connection };
}

function messageDone(responseId: string, itemId: string, transcript: string) {
  return {
    type: 'message_done' as const,
    responseId,
    itemId,
    item: {
      type: 'message' as const,
      itemId,
      role: 'assistant' as const,
      content: [{ type: 'audio' as const, transcript }],
    },
  };
}

describe('the per-delta path', () => {
  test('deltas nobody listens to still reach the history and the playback; a later listener gets what follows', async () => {
    const { model, session, clock, c } = await connected();
    const r = 'resp_quiet';
    c.emit({ type: 'response_started', responseId: r, ephemeral: false });
    c.emit({ type: 'message_started', responseId: r, itemId: 'A' });
    for (const word of ['one ', 'two ', 'three ']) {
      c.emit({ type: 'audio_delta', responseId: r, itemId: 'A', audio: mockPcm16(100, 1) });
      c.emit({ type: 'transcript_delta', responseId: r, itemId: 'A', delta: word });
    }
    await flushMicrotasks();
    const heard: [string, string, string, string][] = [];
    session.on('audio', (e) => heard.push([e.type, e.responseId, e.itemId, `${e.data.byteLength}`]));
    session.on('transcript_delta', (e) => heard.push([e.type, e.responseId, e.itemId, e.delta]));
    c.emit({ type: 'audio_delta', responseId: r, itemId: 'A', audio: mockPcm16(100, 2) });
    c.emit({ type: 'transcript_delta', responseId: r, itemId: 'A', delta: 'four' });
    await flushMicrotasks();
    expect(heard).toEqual([
      ['audio', r, 'A', '4800'],
      ['transcript_delta', r, 'A', 'four'],
    ]);
    const item = session.history.find((i) => i.itemId === 'A');
    expect(item).toMatchObject({ type: 'message', text: 'one two three four', hasAudio: true });
    // All 400 ms of audio were counted for playback, observed or not: 250 ms in, that is where it is cut.
    await clock.advance(250);
    session.interrupt();
    await flushMicrotasks();
    c.emit({ type: 'response_done', responseId: r, status: 'cancelled', ephemeral: false });
    await flushMicrotasks();
    expect(model.commands).toContainEqual({
      type: 'truncateItem',
      itemId: 'A',
      heardMs: 250,
    });
    await session.close();
  });

  test("a removed message takes no late text; the next response's message gets only its own", async () => {
    const { session, c } = await connected();
    const texts: string[] = [];
    session.on('transcript_delta', (e) => texts.push(`${e.responseId}/${e.itemId}:${e.delta}`));
    c.emit({ type: 'response_started', responseId: 'r1', ephemeral: false });
    c.emit({ type: 'message_started', responseId: 'r1', itemId: 'A' });
    c.emit({ type: 'audio_delta', responseId: 'r1', itemId: 'A', audio: mockPcm16(100, 1) });
    c.emit({ type: 'transcript_delta', responseId: 'r1', itemId: 'A', delta: 'alpha ' });
    await flushMicrotasks();
    expect(session.history.find((i) => i.itemId === 'A')).toMatchObject({ text: 'alpha ' });
    c.emit({ type: 'item_deleted', itemId: 'A' });
    c.emit({ type: 'transcript_delta', responseId: 'r1', itemId: 'A', delta: 'late' });
    await flushMicrotasks();
    expect(session.history.some((i) => i.itemId === 'A')).toBe(false);
    c.emit(messageDone('r1', 'A', 'alpha late'));
    c.emit({ type: 'response_done', responseId: 'r1', status: 'completed', ephemeral: false });
    c.emit({ type: 'response_started', responseId: 'r2', ephemeral: false });
    c.emit({ type: 'message_started', responseId: 'r2', itemId: 'B' });
    c.emit({ type: 'audio_delta', responseId: 'r2', itemId: 'B', audio: mockPcm16(100, 2) });
    c.emit({ type: 'transcript_delta', responseId: 'r2', itemId: 'B', delta: 'beta' });
    c.emit({ type: 'audio_delta', responseId: 'r2', itemId: 'B', audio: mockPcm16(100, 3) });
    c.emit({ type: 'transcript_delta', responseId: 'r2', itemId: 'B', delta: ' gamma' });
    await flushMicrotasks();
    expect(texts).toEqual(['r1/A:alpha ', 'r1/A:late', 'r2/B:beta', 'r2/B: gamma']);
    expect(session.history.find((i) => i.itemId === 'B')).toMatchObject({
      type: 'message',
      text: 'beta gamma',
      hasAudio: true,
      responseId: 'r2',
    });
    await session.close();
  });
});

describe('a listener subscribed twice', () => {
  test('hears each event twice; each unsubscribe removes its own subscription, once', async () => {
    const { session, c } = await connected();
    const heard: string[] = [];
    const listener = (event: { itemId: string }) => heard.push(event.itemId);
    const first = session.on('audio', listener);
    const second = session.on('audio', listener);
    const r = 'resp_twice';
    c.emit({ type: 'response_started', responseId: r, ephemeral: false });
    c.emit({ type: 'audio_delta', responseId: r, itemId: 'A', audio: mockPcm16(10, 1) });
    await flushMicrotasks();
    expect(heard).toEqual(['A', 'A']);
    first();
    first();
    c.emit({ type: 'audio_delta', responseId: r, itemId: 'B', audio: mockPcm16(10, 1) });
    await flushMicrotasks();
    expect(heard).toEqual(['A', 'A', 'B']);
    const third = session.on('audio', listener);
    first();
    c.emit({ type: 'audio_delta', responseId: r, itemId: 'C', audio: mockPcm16(10, 1) });
    await flushMicrotasks();
    expect(heard).toEqual(['A', 'A', 'B', 'C', 'C']);
    second();
    third();
    c.emit({ type: 'audio_delta', responseId: r, itemId: 'D', audio: mockPcm16(10, 1) });
    await flushMicrotasks();
    expect(heard).toEqual(['A', 'A', 'B', 'C', 'C']);
    await session.close();
  });
});
