import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession } from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';

async function speaking() {
  const clock = new ManualClock();
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(new Agent({ name: 'Speaker' }), { model, clock });
  const log = new EventRecorder(session);
  await session.connect();
  model.respondWith({
    output: [
      {
        type: 'message',
        text: 'One two three four five six seven eight',
        audio: { ms: 800 },
        pauseAfterChunks: 5,
      },
    ],
  });
  const responseId = await session.generateResponse();
  await flushMicrotasks();
  const itemId = log.of('audio')[0]!.itemId;
  return { clock, model, session, log, responseId, itemId };
}

const edits = (model: MockRealtimeModel) =>
  model.commands.filter((c) => c.type === 'truncateItem' || c.type === 'cancelResponse');

describe('interrupt() is honest at once', () => {
  test('sends the cancel and the truncate in the same turn, without waiting for response_done', async () => {
    const { clock, model, session, responseId, itemId } = await speaking();
    await clock.advance(300);
    session.interrupt();
    // No microtask has run: the provider has not answered the cancel yet.
    expect(edits(model)).toEqual([
      { type: 'cancelResponse', responseId },
      { type: 'truncateItem', itemId, heardMs: 300 },
    ]);
    await flushMicrotasks();
    // The response's end adds nothing: the message was corrected once.
    expect(edits(model)).toHaveLength(2);
    expect(session.history.at(-1)).toMatchObject({ itemId, interrupted: true });
    await session.close();
  });

  test('the truncate is clamped to the audio received even when the clock ran past it', async () => {
    const { clock, model, session, itemId } = await speaking();
    await clock.advance(10_000);
    session.interrupt();
    expect(edits(model).at(-1)).toEqual({ type: 'truncateItem', itemId, heardMs: 500 });
    await session.close();
  });
});

describe('history records what the listener heard', () => {
  async function interruptedAt(ms: number) {
    const clock = new ManualClock();
    const model = new MockRealtimeModel({ clock });
    const session = new RealtimeSession(new Agent({ name: 'Speaker' }), {
      model,
      clock,
      reconnect: { jitter: 0 },
    });
    const log = new EventRecorder(session);
    await session.connect();
    model.respondWith({
      output: [
        { type: 'message', text: 'One two three four five six seven eight', audio: { ms: 1000 } },
        { type: 'pause' },
      ],
    });
    session.sendMessage('Count for me.');
    await flushMicrotasks();
    await clock.advance(ms);
    session.interrupt();
    await flushMicrotasks();
    return { clock, model, session, log };
  }

  test('an interrupted message carries its heard duration and heard text', async () => {
    const { session } = await interruptedAt(400);
    expect(session.history.at(-1)).toMatchObject({
      role: 'assistant',
      text: 'One two three four five six seven eight',
      interrupted: true,
      heardMs: 400,
      heardText: 'One two three',
    });
    await session.close();
  });

  test('a reconnect replays only what was heard', async () => {
    const { clock, model, session, log } = await interruptedAt(400);
    model.connection.disconnect('network');
    await flushMicrotasks();
    await clock.advance(1_000);
    await flushMicrotasks();
    expect(log.of('reconnected')).toHaveLength(1);
    const replayed = model.connection.commands.flatMap((c) =>
      c.type === 'createItem' && c.item.type === 'message' ? [c.item] : [],
    );
    expect(replayed.map((item) => [item.role, item.content])).toEqual([
      ['user', [{ type: 'text', text: 'Count for me.' }]],
      ['assistant', [{ type: 'text', text: 'One two three' }]],
    ]);
    await session.close();
  });

  test('a message heard to its end carries no heard fields', async () => {
    const { session } = await interruptedAt(5_000);
    const last = session.history.at(-1);
    expect(last).toMatchObject({ role: 'assistant', interrupted: false });
    expect(last).not.toHaveProperty('heardText');
    await session.close();
  });
});

describe('audio_started', () => {
  test('is emitted once at the first audio of each message, before its first audio chunk', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(new Agent({ name: 'Speaker' }), { model, clock: new ManualClock() });
    const log = new EventRecorder(session);
    await session.connect();
    model.respondWith({
      output: [
        { type: 'message', text: 'First.', audio: { ms: 300 } },
        { type: 'message', text: 'Second.', audio: { ms: 300 } },
      ],
    });
    const reply = session.generateResponse();
    await reply;
    await reply.done;
    await flushMicrotasks();
    const audioEvents = log.events.filter((e) => e.type === 'audio_started' || e.type === 'audio');
    const items = [...new Set(log.of('audio').map((e) => e.itemId))];
    expect(items).toHaveLength(2);
    for (const itemId of items) {
      const mine = audioEvents.filter((e) => e.itemId === itemId).map((e) => e.type);
      expect(mine[0]).toBe('audio_started');
      expect(mine.filter((t) => t === 'audio_started')).toHaveLength(1);
    }
    await session.close();
  });
});
