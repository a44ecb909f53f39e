import { UserError } from '../../../errors.js';
import type { PlaybackTracker } from '../../playback/playback-tracker.js';

/**
 * `session.playback`: how an app that plays the assistant's audio itself (a phone gateway, a browser)
 * tells the session what the listener actually heard. Item ids are those of the `audio` events.
 */
export class SessionPlayback {
  readonly #tracker: PlaybackTracker;
  readonly #interrupt: () => void;
  readonly #reported: () => void;

  /** @internal Created by the session; `reported` runs after each report of progress. */
  constructor(tracker: PlaybackTracker, interrupt: () => void, reported: () => void = () => {}) {
    this.#tracker = tracker;
    this.#interrupt = interrupt;
    this.#reported = reported;
  }

  /** The tracker the session asks (the one passed as `playbackTracker`, or the default). */
  get tracker(): PlaybackTracker {
    return this.#tracker;
  }

  /** The listener has heard the first `ms` milliseconds of message `itemId`. */
  played(itemId: string, ms: number): void {
    checkItemId('played', itemId);
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      throw new UserError(
        `playback.played(itemId, ms) needs ms >= 0 (milliseconds heard), got ${String(ms)}.`,
      );
    }
    this.#tracker.played(itemId, ms);
    this.#reported();
  }

  /** Message `itemId` played to its end. */
  finished(itemId: string): void {
    checkItemId('finished', itemId);
    this.#tracker.finished(itemId);
    this.#reported();
  }

  /**
   * The app stopped playback itself (its own barge-in detection, a stop button): the session stops the
   * response the same way `session.interrupt()` does and tells the model what was heard. Does nothing
   * when nothing is playing or the session is not connected.
   */
  interrupted(): void {
    this.#interrupt();
  }

  /** Whole milliseconds of `itemId` heard so far, as the tracker reports it. */
  playedMs(itemId: string): number {
    return Math.max(0, Math.floor(this.#tracker.playedMs(itemId)));
  }
}

function checkItemId(method: string, itemId: unknown): void {
  if (typeof itemId !== 'string' || itemId.length === 0) {
    throw new UserError(
      `playback.${method}(itemId) needs the itemId of an audio event, got ${String(itemId)}.`,
    );
  }
}
