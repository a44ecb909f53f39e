// A bare page for tests/browser: @parley/browser with a mock model, and every AudioContext the page makes, so a test
// can check each was closed.
import { BrowserVoiceError, connectBrowserVoice, openCallAudio } from '@parley/browser';
import { Agent, type RealtimeAudioFormat, RealtimeSession, ReportedPlaybackTracker } from '@parley/core';
import { MockRealtimeModel } from '@parley/mock';

const contexts: AudioContext[] = [];
const NativeAudioContext = globalThis.AudioContext;
globalThis.AudioContext = class extends NativeAudioContext {
  constructor(options?: AudioContextOptions) {
    super(options);
    contexts.push(this);
  }
};

/** A session on the mock model, as the helper wants it (playback reported). */
function mockSession(options: { turnDetection?: null; format?: RealtimeAudioFormat } = {}): {
  session: RealtimeSession;
  model: MockRealtimeModel;
} {
  const model = new MockRealtimeModel();
  const session = new RealtimeSession(new Agent({ name: 'Lab' }), {
    model,
    playbackTracker: new ReportedPlaybackTracker(),
    config: {
      ...(options.turnDetection === null && { turnDetection: null }),
      ...(options.format && { inputAudioFormat: options.format, outputAudioFormat: options.format }),
    },
  });
  return { session, model };
}

/**
 * Resolves once `context`'s audio clock moved on `ms` (the microphone's frames come with it), not the page's timers;
 * rejects if it has not within `ms` plus 10 s of page time (a stalled audio thread).
 */
function audioTime(context: AudioContext, ms: number): Promise<void> {
  const until = context.currentTime + ms / 1000;
  const deadline = performance.now() + ms + 10_000;
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      if (context.currentTime >= until) resolve();
      else if (performance.now() > deadline) reject(new Error(`The audio clock did not move on ${ms} ms.`));
      else setTimeout(check, 5);
    };
    check();
  });
}

export const lab = {
  connectBrowserVoice,
  openCallAudio,
  BrowserVoiceError,
  mockSession,
  contexts,
  audioTime,
};
export type Lab = typeof lab;
Object.assign(globalThis, { lab });
