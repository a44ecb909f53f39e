import { brand } from '../../brand.js';
import type { Clock } from '../../clock.js';
import { PLAYBACK_ENTRIES_LIMIT } from '../../constants.js';

/**
 * What the listener has actually heard of each assistant message. A `RealtimeSession` tells its tracker
 * about every chunk of audio it hands to the app and asks it, when the user interrupts, how far each
 * message got; the answer decides where the model's memory of the message is cut.
 *
 * Use {@link RealtimePlaybackTracker} (the default: audio is assumed to play in real time) or
 * {@link ReportedPlaybackTracker} (the app reports progress through `session.playback`), or implement
 * this interface to read positions from your own audio pipeline.
 */
export interface PlaybackTracker {
  /** The session handed `ms` more milliseconds of the audio of message `itemId` to the app. */
  audioReceived(itemId: string, ms: number): void;
  /** The app reports that the listener has heard the first `ms` milliseconds of `itemId`. */
  played(itemId: string, ms: number): void;
  /** The app reports that `itemId` played to its end. */
  finished(itemId: string): void;
  /**
   * Milliseconds of `itemId` heard so far; `0` when nothing (or an unknown item). The session floors
   * the answer and clamps it to the audio it received, so it never truncates beyond that.
   */
  playedMs(itemId: string): number;
  /** Playback was stopped (an interruption): audio still queued will never play; positions freeze. */
  stopped(): void;
  /** Forgets everything (the session released its connection). */
  reset(): void;
}

interface Entry {
  readonly itemId: string;
  /** When its first audio arrived. */
  readonly firstAt: number;
  receivedMs: number;
  reportedMs: number | undefined;
  finished: boolean;
  /** Set once playback stopped: the position it stopped at, forever. */
  frozenMs: number | undefined;
}

/** What both built-in trackers share: per-message bookkeeping and the app's reports. */
abstract class BaseTracker implements PlaybackTracker {
  /** In arrival order: the order the app plays them. */
  /** Created on first use: an idle session holds none. */
  protected entries: Map<string, Entry> | undefined;
  /** The entry that received audio last: the next chunk is almost always for it too. */
  #recent: Entry | undefined;

  protected abstract now(): number;
  /** The position of a live (not stopped, not reported) entry. */
  protected abstract estimate(entry: Entry): number;

  audioReceived(itemId: string, ms: number): void {
    const recent = this.#recent;
    let entry = recent !== undefined && recent.itemId === itemId ? recent : this.entries?.get(itemId);
    if (!entry) {
      entry = {
        itemId,
        firstAt: this.now(),
        receivedMs: 0,
        reportedMs: undefined,
        finished: false,
        frozenMs: undefined,
      };
      this.entries ??= new Map<string, Entry>();
      this.entries.set(itemId, entry);
      if ((this.entries?.size ?? 0) > PLAYBACK_ENTRIES_LIMIT)
        this.entries?.delete(this.entries.keys().next().value as string);
    }
    this.#recent = entry;
    if (Number.isFinite(ms) && ms > 0) entry.receivedMs += ms;
  }

  played(itemId: string, ms: number): void {
    const entry = this.entries?.get(itemId);
    if (!entry || entry.frozenMs !== undefined || !Number.isFinite(ms)) return;
    entry.reportedMs = Math.max(entry.reportedMs ?? 0, ms);
  }

  finished(itemId: string): void {
    const entry = this.entries?.get(itemId);
    if (entry && entry.frozenMs === undefined) entry.finished = true;
  }

  playedMs(itemId: string): number {
    const entry = this.entries?.get(itemId);
    if (!entry) return 0;
    if (entry.frozenMs !== undefined) return entry.frozenMs;
    return this.#position(entry);
  }

  stopped(): void {
    if (this.entries === undefined) return;
    // Every live position is read before any is frozen (an estimate counts the live messages queued before it).
    // Entries frozen by an earlier stop keep their position; most entries are, so only the live ones are listed.
    let live: [Entry, number][] | undefined;
    for (const entry of this.entries.values()) {
      if (entry.frozenMs !== undefined) continue;
      live ??= [];
      live.push([entry, this.#position(entry)]);
    }
    if (live !== undefined) for (const [entry, position] of live) entry.frozenMs = position;
  }

  reset(): void {
    this.entries?.clear();
    this.#recent = undefined;
  }

  #position(entry: Entry): number {
    if (entry.finished) return entry.receivedMs;
    if (entry.reportedMs !== undefined) return Math.min(entry.reportedMs, entry.receivedMs);
    return Math.min(Math.max(0, this.estimate(entry)), entry.receivedMs);
  }
}

/**
 * The default tracker: audio is assumed to play in real time, one message after the other, each from
 * when its first chunk arrived (or when the message before it ends, if later), on the session's clock.
 * Positions the app reports through `session.playback` take precedence for the messages they name.
 */
export class RealtimePlaybackTracker extends BaseTracker {
  static {
    brand(RealtimePlaybackTracker, 'core.RealtimePlaybackTracker');
  }

  readonly #clock: Clock;

  constructor(clock: Clock) {
    super();
    this.#clock = clock;
  }

  protected now(): number {
    return this.#clock.now();
  }

  protected estimate(target: Entry): number {
    // Messages queue up: each starts when it arrived or when the one before it ends, whichever is later.
    let queueEnd = Number.NEGATIVE_INFINITY;
    for (const entry of this.entries?.values() ?? []) {
      if (entry.frozenMs !== undefined) continue;
      const start = Math.max(entry.firstAt, queueEnd);
      if (entry === target) return this.now() - start;
      queueEnd = start + entry.receivedMs;
    }
    return 0;
  }
}

/**
 * For apps that play the audio themselves (a phone gateway, a browser): only what the app reports
 * through `session.playback.played()` / `finished()` counts as heard; nothing reported is nothing heard.
 */
export class ReportedPlaybackTracker extends BaseTracker {
  static {
    brand(ReportedPlaybackTracker, 'core.ReportedPlaybackTracker');
  }

  protected now(): number {
    return 0;
  }

  protected estimate(): number {
    return 0;
  }
}
