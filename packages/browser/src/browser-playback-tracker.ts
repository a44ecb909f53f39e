import { type PlaybackTracker, ReportedPlaybackTracker } from '@parley/core';
import { brand } from '@parley/core/internal';

/** How many messages the tracker keeps apart (the session's own tracker forgets older ones too). */
const REMEMBERED_MESSAGES = 64;

/** Where a tracker reads live positions: the speaker, from its last report and the audio clock. */
export interface LivePlayback {
  /** Milliseconds of `itemId` out of the speaker now, or `undefined` when the speaker is not playing it. */
  livePlayedMs(itemId: string): number | undefined;
}

/**
 * The playback tracker for a session whose audio `connectBrowserVoice` plays: what the speaker reported, and, while a
 * message plays, its position now, read from the audio clock. A barge-in is handled on the main thread, which may be
 * behind the speaker's reports by a few milliseconds (a busy page, a burst of network events): the session cuts the
 * message at the position of that very moment instead of the last report it took. Pass it as the session's
 * `playbackTracker`; without a speaker it counts only reports, like `ReportedPlaybackTracker`.
 */
export class BrowserPlaybackTracker implements PlaybackTracker {
  static {
    brand(BrowserPlaybackTracker, 'browser.BrowserPlaybackTracker');
  }

  readonly #reported = new ReportedPlaybackTracker();
  #live: LivePlayback | undefined;
  /** The messages with audio, oldest first; `true` once a stop froze them (their live position no longer counts). */
  readonly #frozen = new Map<string, boolean>();

  /** @internal The speaker that plays the session's audio; returns the function that detaches it. */
  attach(live: LivePlayback): () => void {
    this.#live = live;
    return () => {
      if (this.#live === live) this.#live = undefined;
    };
  }

  audioReceived(itemId: string, ms: number): void {
    if (!this.#frozen.has(itemId)) {
      if (this.#frozen.size >= REMEMBERED_MESSAGES)
        this.#frozen.delete(this.#frozen.keys().next().value as string);
      this.#frozen.set(itemId, false);
    }
    this.#reported.audioReceived(itemId, ms);
  }

  played(itemId: string, ms: number): void {
    this.#reported.played(itemId, ms);
  }

  finished(itemId: string): void {
    this.#reported.finished(itemId);
  }

  playedMs(itemId: string): number {
    const reported = this.#reported.playedMs(itemId);
    if (this.#frozen.get(itemId) !== false) return reported;
    const live = this.#live?.livePlayedMs(itemId);
    return live === undefined ? reported : Math.max(reported, live);
  }

  stopped(): void {
    // The positions of this moment become the reports the freeze keeps.
    for (const [itemId, frozen] of this.#frozen) {
      if (frozen) continue;
      const ms = this.#live?.livePlayedMs(itemId);
      if (ms !== undefined) this.#reported.played(itemId, ms);
      this.#frozen.set(itemId, true);
    }
    this.#reported.stopped();
  }

  reset(): void {
    this.#frozen.clear();
    this.#reported.reset();
  }
}
