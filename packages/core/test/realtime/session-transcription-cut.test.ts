import { EventRecorder } from '@parley/conformance';
import { Agent, type RealtimeCommand, RealtimeSession } from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';

async function transcribing() {
  const clock = new ManualClock();
  const model = new MockRealtimeModel({ clock });
  const session = new RealtimeSession(new Agent({ name: 'Listener' }), {
    model,
    clock,
    reconnect: { jitter: 0 },
  });
  const log = new EventRecorder(session);
  await session.connect();
  // The user's turn is committed and its transcript is arriving when the connection is cut.
  model.connection.emit({ type: 'input_audio_committed', itemId: 'item_u1' });
  model.connection.emit({ type: 'input_transcription', itemId: 'item_u1', text: 'What is ', final: false });
  model.connection.emit({ type: 'input_transcription', itemId: 'item_u1', text: 'my', final: false });
  await flushMicrotasks();
  expect(session.history).toEqual([
    expect.objectContaining({ itemId: 'item_u1', role: 'user', text: 'What is my', interrupted: false }),
  ]);
  return { clock, model, session, log };
}

const created = (commands: readonly RealtimeCommand[]) =>
  commands.filter((c): c is Extract<RealtimeCommand, { type: 'createItem' }> => c.type === 'createItem');

describe('a user turn cut mid-transcription', () => {
  test('is marked partial in history and not replayed as complete after a reconnect (a warning names it)', async () => {
    const { model, session, log } = await transcribing();
    // Another, complete turn is replayed as usual.
    model.connection.emit({ type: 'input_audio_committed', itemId: 'item_u0' });
    model.connection.emit({ type: 'input_transcription', itemId: 'item_u0', text: 'Hello.', final: true });
    await flushMicrotasks();
    const first = model.connection;
    first.disconnect('network down');
    await flushMicrotasks();
    expect(model.connections).toHaveLength(2);
    expect(log.of('reconnected')).toHaveLength(1);
    expect(session.history.find((i) => i.itemId === 'item_u1')).toMatchObject({
      role: 'user',
      text: 'What is my',
      status: 'incomplete',
      interrupted: true,
    });
    expect(session.history.find((i) => i.itemId === 'item_u0')).toMatchObject({
      text: 'Hello.',
      status: 'completed',
      interrupted: false,
    });
    const replayed = created(model.connection.commands).map((c) => c.item);
    expect(replayed).toEqual([
      expect.objectContaining({ itemId: 'item_u0', content: [{ type: 'text', text: 'Hello.' }] }),
    ]);
    expect(log.of('warning')).toEqual([
      expect.objectContaining({
        code: 'history_not_replayed',
        message: expect.stringContaining('cut mid-transcription'),
      }),
    ]);
    expect(log.of('warning')[0]?.message).toContain('item_u1');
    // A late final transcript of the old connection changes nothing.
    first.emit({ type: 'input_transcription', itemId: 'item_u1', text: 'What is my balance?', final: true });
    await flushMicrotasks();
    expect(session.history.find((i) => i.itemId === 'item_u1')).toMatchObject({
      text: 'What is my',
      status: 'incomplete',
    });
    await session.close();
  });

  test('closing the session mid-transcription marks it partial too', async () => {
    const { session, log } = await transcribing();
    await session.close();
    expect(session.history).toEqual([
      expect.objectContaining({ itemId: 'item_u1', status: 'incomplete', interrupted: true }),
    ]);
    expect(log.of('history_updated').at(-1)?.item).toMatchObject({ itemId: 'item_u1', interrupted: true });
  });

  test('a final transcript before the cut: complete, replayed', async () => {
    const { model, session, log } = await transcribing();
    model.connection.emit({
      type: 'input_transcription',
      itemId: 'item_u1',
      text: 'What is my balance?',
      final: true,
    });
    await flushMicrotasks();
    model.connection.disconnect('network down');
    await flushMicrotasks();
    expect(session.history).toEqual([
      expect.objectContaining({
        itemId: 'item_u1',
        text: 'What is my balance?',
        status: 'completed',
        interrupted: false,
      }),
    ]);
    expect(created(model.connection.commands)).toHaveLength(1);
    expect(log.of('warning')).toEqual([]);
    await session.close();
  });
});
