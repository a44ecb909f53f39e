// connectBrowserVoice checks its options before it opens anything: here (Node, no AudioContext) a valid call gets
// as far as the first browser API and fails there with a typed error, an invalid one fails before.
import { BrowserVoiceError, connectBrowserVoice } from '@parley/browser';
import { Agent, RealtimeSession, ReportedPlaybackTracker, UnknownOptionError } from '@parley/core';
import { MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';

const agent = new Agent({ name: 'a' });
const session = new RealtimeSession(agent, {
  model: new MockRealtimeModel(),
  playbackTracker: new ReportedPlaybackTracker(),
});

async function failure(options: unknown): Promise<unknown> {
  return connectBrowserVoice(options as Parameters<typeof connectBrowserVoice>[0]).then(
    () => expect.fail('connectBrowserVoice resolved'),
    (error: unknown) => error,
  );
}

describe('connectBrowserVoice options', () => {
  test('a valid call without a browser fails with audio_unsupported, naming what is missing', async () => {
    const error = await failure({ session });
    expect(error).toBeInstanceOf(BrowserVoiceError);
    expect(error).toMatchObject({ code: 'audio_unsupported', message: 'This browser has no AudioContext.' });
  });

  test('an unknown option names the one meant', async () => {
    const error = await failure({ session, microphone: { muteed: true } });
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect(error).toMatchObject({ code: 'unknown_option', suggestion: 'microphone.muted' });
    expect(await failure({ session, speakers: {} })).toMatchObject({ suggestion: 'speaker' });
  });

  test.each([
    [{}, /needs `session`/],
    [{ session: {} }, /needs `session`/],
    [{ session, microphone: { frameMs: 5 } }, /frameMs .* 10 to 100, got 5/],
    [{ session, microphone: { mode: 'vad' } }, /'open' or 'push-to-talk', got vad/],
    [{ session, microphone: { constraints: 'default' } }, /MediaTrackConstraints/],
    [{ session, speaker: { onStop: 'log' } }, /onStop is a function/],
    [{ session, startTimeoutMs: 0 }, /startTimeoutMs is a positive number/],
    [{ session, workletUrl: 42 }, /workletUrl is a URL string/],
  ])('%o is refused before anything opens', async (options, message) => {
    const error = await failure(options);
    expect(error).toBeInstanceOf(BrowserVoiceError);
    expect(error).toMatchObject({ code: 'invalid_option' });
    expect((error as Error).message).toMatch(message);
  });

  test('a speaker needs a session that takes reported playback, not one that guesses it on a clock', async () => {
    const guessing = new RealtimeSession(agent, { model: new MockRealtimeModel() });
    const error = await failure({ session: guessing });
    expect(error).toMatchObject({ code: 'invalid_option' });
    expect((error as Error).message).toMatch(/playbackTracker: new BrowserPlaybackTracker\(\)/);
    // Without the speaker the app plays the audio itself, with whatever tracker it chose.
    expect(await failure({ session: guessing, speaker: false })).toMatchObject({ code: 'audio_unsupported' });
  });

  test('an aborted signal stops the start before anything opens', async () => {
    const error = await failure({ session, signal: AbortSignal.abort() });
    expect(error).toMatchObject({ code: 'closed' });
  });
});
