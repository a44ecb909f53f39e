// BrowserPlaybackTracker inside a real session: what the session asks it at a barge-in, and what it tells the model.
import { BrowserPlaybackTracker } from '@parley/browser';
import { Agent, RealtimeSession } from '@parley/core';
import { flushMicrotasks, MockRealtimeModel, mockPcm16 } from '@parley/mock';
import { describe, expect, test } from 'vitest';

/** A speaker whose live positions the test sets. */
class FakeSpeaker {
  readonly positions = new Map<string, number>();
  livePlayedMs(itemId: string): number | undefined {
    return this.positions.get(itemId);
  }
}

/** A session whose response has sent 1 s of audio for one message and is still going; returns its item id. */
async function playing(tracker: BrowserPlaybackTracker) {
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(new Agent({ name: 'a' }), { model, playbackTracker: tracker });
  const items: string[] = [];
  session.on('audio', (event) => items.push(event.itemId));
  await session.connect();
  model.respondWith({
    output: [{ type: 'message', text: 'Long.', audio: [mockPcm16(1000)] }, { type: 'pause' }],
  });
  await session.generateResponse();
  await flushMicrotasks();
  const truncates = () => model.commands.filter((c) => c.type === 'truncateItem');
  return { session, itemId: items[0] as string, truncates };
}

describe('BrowserPlaybackTracker', () => {
  test("a barge-in cuts at the speaker's live position, later than its last report, and freezes it there", async () => {
    const tracker = new BrowserPlaybackTracker();
    const speaker = new FakeSpeaker();
    tracker.attach(speaker);
    const { session, itemId, truncates } = await playing(tracker);
    session.playback.played(itemId, 400);
    speaker.positions.set(itemId, 430.6);
    expect(session.playback.playedMs(itemId)).toBe(430);
    session.interrupt();
    expect(truncates()).toEqual([{ type: 'truncateItem', itemId, audioEndMs: 430 }]);
    // Frozen: neither the live position nor a late report moves it any more.
    speaker.positions.set(itemId, 470);
    session.playback.played(itemId, 480);
    expect(session.playback.playedMs(itemId)).toBe(430);
    await session.close();
  });

  test('a live position behind the reports (a stale clock) never moves the position back', async () => {
    const tracker = new BrowserPlaybackTracker();
    const speaker = new FakeSpeaker();
    tracker.attach(speaker);
    const { session, itemId, truncates } = await playing(tracker);
    session.playback.played(itemId, 400);
    speaker.positions.set(itemId, 390);
    session.interrupt();
    expect(truncates()).toEqual([{ type: 'truncateItem', itemId, audioEndMs: 400 }]);
    await session.close();
  });

  test('without a speaker (detached, or none) it counts the reports only', async () => {
    const tracker = new BrowserPlaybackTracker();
    const speaker = new FakeSpeaker();
    const detach = tracker.attach(speaker);
    detach();
    const { session, itemId, truncates } = await playing(tracker);
    speaker.positions.set(itemId, 900);
    session.playback.played(itemId, 250);
    session.interrupt();
    expect(truncates()).toEqual([{ type: 'truncateItem', itemId, audioEndMs: 250 }]);
    await session.close();
  });
});
