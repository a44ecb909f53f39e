import { EventRecorder } from '@parley/conformance';
import { Agent, type RealtimeCapabilities, RealtimeSession, ReportedPlaybackTracker } from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';

const agent = new Agent({ name: 'Speaker' });

async function connected(capabilities: Partial<RealtimeCapabilities>) {
  const model = new MockRealtimeModel({ capabilities });
  const session = new RealtimeSession(agent, {
    model,
    clock: new ManualClock(),
    playbackTracker: new ReportedPlaybackTracker(),
  });
  const log = new EventRecorder(session);
  await session.connect();
  return { model, session, log };
}

/** The commands that stop or correct what the listener hears. */
const stops = (model: MockRealtimeModel) =>
  model.commands.filter((c) =>
    ['cancelResponse', 'clearOutputAudio', 'truncateItem', 'deleteItem'].includes(c.type),
  );

/** A message still being spoken: 300 ms of audio sent, the rest held. */
async function speaking(model: MockRealtimeModel, session: RealtimeSession, log: EventRecorder) {
  model.respondWith({
    output: [
      { type: 'message', text: 'A long answer that goes on.', audio: { ms: 600 }, pauseAfterChunks: 3 },
    ],
  });
  const responseId = await session.generateResponse();
  await flushMicrotasks();
  const itemId = log.of('audio')[0]?.itemId as string;
  return { responseId, itemId };
}

describe('servicePlayback: the service plays the audio and knows what was heard', () => {
  test('interrupt: cancel then clearOutputAudio, no truncate; the heard position is the service’s, not the app’s report', async () => {
    const { model, session, log } = await connected({ servicePlayback: true });
    const { responseId, itemId } = await speaking(model, session, log);
    // The app's report says 250 ms; the service says the listener heard 120 ms.
    session.playback.played(itemId, 250);
    model.connection.serviceHeard(itemId, 120);
    session.interrupt();
    session.interrupt();
    await flushMicrotasks();
    expect(stops(model)).toEqual([{ type: 'cancelResponse', responseId }, { type: 'clearOutputAudio' }]);
    expect(log.of('audio_interrupted')).toEqual([
      { type: 'audio_interrupted', responseId, itemId, heardMs: 120 },
    ]);
    expect(session.history.find((item) => item.itemId === itemId)).toMatchObject({
      interrupted: true,
      heardMs: 120,
    });
    await session.close();
  });

  test('without it (the default) the same interruption truncates at the app’s report and clears nothing', async () => {
    const { model, session, log } = await connected({});
    const { responseId, itemId } = await speaking(model, session, log);
    session.playback.played(itemId, 250);
    session.interrupt();
    await flushMicrotasks();
    expect(stops(model)).toEqual([
      { type: 'cancelResponse', responseId },
      { type: 'truncateItem', itemId, heardMs: 250 },
    ]);
    expect(log.of('audio_interrupted')).toEqual([
      { type: 'audio_interrupted', responseId, itemId, heardMs: 250 },
    ]);
    await session.close();
  });

  test('a finished response the service still plays: clear only (nothing to cancel); nothing playing: nothing sent', async () => {
    const { model, session, log } = await connected({ servicePlayback: true });
    model.respondWith({ output: [{ type: 'message', text: 'Short.', audio: { ms: 200 } }] });
    const responseId = await session.generateResponse();
    await log.waitFor('response_done', (e) => e.responseId === responseId);
    // Nothing plays any more (the mock played it as it sent it): an interruption has nothing to stop.
    session.interrupt();
    await flushMicrotasks();
    expect(stops(model)).toEqual([]);
    // The service says it is still playing it (its buffer is behind): the interruption clears it.
    model.connection.emit({ type: 'output_audio_started', responseId });
    await flushMicrotasks();
    session.interrupt();
    await flushMicrotasks();
    expect(stops(model)).toEqual([{ type: 'clearOutputAudio' }]);
    await session.close();
  });

  test('user speech with the provider’s turn detection: the service stops and cuts by itself; the session says what was heard', async () => {
    const { model, session, log } = await connected({ servicePlayback: true });
    const { responseId, itemId } = await speaking(model, session, log);
    model.connection.serviceHeard(itemId, 80);
    model.connection.userStartsSpeaking();
    await flushMicrotasks();
    await log.waitFor('response_done', (e) => e.responseId === responseId);
    expect(stops(model)).toEqual([]);
    expect(log.of('audio_interrupted')).toEqual([
      { type: 'audio_interrupted', responseId, itemId, heardMs: 80 },
    ]);
    expect(session.history.find((item) => item.itemId === itemId)).toMatchObject({ heardMs: 80 });
    await session.close();
  });
});
