import { RealtimePlaybackTracker, ReportedPlaybackTracker } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { describe, expect, test } from 'vitest';

describe('RealtimePlaybackTracker', () => {
  test('a message plays in real time from its first chunk, never beyond the audio received', async () => {
    const clock = new ManualClock(1000);
    const tracker = new RealtimePlaybackTracker(clock);
    tracker.audioReceived('a', 100);
    expect(tracker.playedMs('a')).toBe(0);
    await clock.advance(40);
    tracker.audioReceived('a', 100);
    expect(tracker.playedMs('a')).toBe(40);
    await clock.advance(500);
    expect(tracker.playedMs('a')).toBe(200);
    expect(tracker.playedMs('unknown')).toBe(0);
  });

  test('messages queue: the next one starts when the one before it ends, or when it arrives if later', async () => {
    const clock = new ManualClock();
    const tracker = new RealtimePlaybackTracker(clock);
    tracker.audioReceived('a', 300);
    tracker.audioReceived('b', 200);
    await clock.advance(350);
    expect([tracker.playedMs('a'), tracker.playedMs('b')]).toEqual([300, 50]);
    await clock.advance(650);
    tracker.audioReceived('c', 100);
    await clock.advance(30);
    expect(tracker.playedMs('c')).toBe(30);
  });

  test("the app's reports take precedence for the messages they name", async () => {
    const clock = new ManualClock();
    const tracker = new RealtimePlaybackTracker(clock);
    tracker.audioReceived('a', 500);
    tracker.audioReceived('b', 500);
    await clock.advance(300);
    tracker.played('a', 120);
    expect(tracker.playedMs('a')).toBe(120);
    tracker.played('a', 80);
    expect(tracker.playedMs('a')).toBe(120);
    tracker.played('a', 9999);
    expect(tracker.playedMs('a')).toBe(500);
    tracker.finished('b');
    expect(tracker.playedMs('b')).toBe(500);
  });

  test('stopped() freezes every position; audio that arrives later starts from its own arrival', async () => {
    const clock = new ManualClock();
    const tracker = new RealtimePlaybackTracker(clock);
    tracker.audioReceived('a', 400);
    await clock.advance(150);
    tracker.stopped();
    await clock.advance(500);
    tracker.played('a', 300);
    expect(tracker.playedMs('a')).toBe(150);
    tracker.audioReceived('b', 100);
    await clock.advance(60);
    expect(tracker.playedMs('b')).toBe(60);
  });

  test('reset() forgets everything', async () => {
    const clock = new ManualClock();
    const tracker = new RealtimePlaybackTracker(clock);
    tracker.audioReceived('a', 400);
    await clock.advance(100);
    tracker.reset();
    expect(tracker.playedMs('a')).toBe(0);
  });

  test('keeps a bounded number of messages', async () => {
    const clock = new ManualClock();
    const tracker = new RealtimePlaybackTracker(clock);
    for (let i = 0; i < 100; i++) tracker.audioReceived(`m${i}`, 10);
    await clock.advance(10_000);
    expect(tracker.playedMs('m0')).toBe(0);
    expect(tracker.playedMs('m99')).toBe(10);
  });
});

describe('ReportedPlaybackTracker', () => {
  test('only what the app reports counts as heard', () => {
    const tracker = new ReportedPlaybackTracker();
    tracker.audioReceived('a', 300);
    tracker.audioReceived('b', 300);
    expect(tracker.playedMs('a')).toBe(0);
    tracker.played('a', 120.5);
    expect(tracker.playedMs('a')).toBe(120.5);
    tracker.played('b', 1000);
    expect(tracker.playedMs('b')).toBe(300);
    tracker.played('unknown', 50);
    expect(tracker.playedMs('unknown')).toBe(0);
  });

  test('finished() means all of it; stopped() freezes reports', () => {
    const tracker = new ReportedPlaybackTracker();
    tracker.audioReceived('a', 300);
    tracker.finished('a');
    expect(tracker.playedMs('a')).toBe(300);
    tracker.audioReceived('b', 300);
    tracker.played('b', 100);
    tracker.stopped();
    tracker.played('b', 200);
    tracker.finished('b');
    expect(tracker.playedMs('b')).toBe(100);
  });
});
