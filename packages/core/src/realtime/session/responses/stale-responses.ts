import type { Clock, TimerHandle } from '../../../clock.js';
import type { BlockedRequest } from '../errors.js';

interface Watched {
  readonly responseId: string;
  /** An event of the response arrived since the last check. */
  seen: boolean;
  timer: TimerHandle | undefined;
  /** The length of its check window: `staleMs`, or shorter while a request waits behind it. */
  windowMs: number;
  /** The request waiting behind it that shortened its window. */
  blocked: BlockedRequest | undefined;
}

/**
 * Bounds how long a started response may go silent: each response the provider started and has not ended is
 * checked every `staleMs` on the session's clock, and one that sent no event during a whole check is handed to
 * `stale` (so it is dropped between one and two `staleMs` after its last event). A request queued behind a
 * response shortens its window ({@link blocking}), so a response that stalls is dropped before that request's
 * response timeout runs out. Marking an event costs a flag write: the response that sent the last event is checked
 * first, before any lookup.
 */
export class StaleResponses {
  readonly #clock: Clock;
  /** The bound, in ms. */
  readonly staleMs: number;
  readonly #stale: (responseId: string, blocked?: BlockedRequest) => void;
  /** Created on first use: an idle session holds none. */
  #watched: Map<string, Watched> | undefined;
  /** The response that sent the last event. */
  #hot: Watched | undefined;

  constructor(clock: Clock, staleMs: number, stale: (responseId: string, blocked?: BlockedRequest) => void) {
    this.#clock = clock;
    this.staleMs = staleMs;
    this.#stale = stale;
  }

  /** The provider started `responseId`: watch it until {@link end}. */
  begin(responseId: string): void {
    if (this.#watched?.has(responseId)) return;
    const watched: Watched = {
      responseId,
      seen: false,
      timer: undefined,
      windowMs: this.staleMs,
      blocked: undefined,
    };
    this.#watched ??= new Map();
    this.#watched.set(responseId, watched);
    this.#arm(watched);
  }

  /**
   * Request `clientRequestId` waits behind `responseId`: from now on the response is checked every `windowMs`
   * (when shorter than its window), so it is dropped within two windows of its last event.
   */
  blocking(responseId: string, clientRequestId: string, windowMs: number): void {
    const watched = this.#watched?.get(responseId);
    if (watched === undefined || windowMs >= watched.windowMs) return;
    watched.windowMs = windowMs;
    watched.blocked = { clientRequestId, silentMs: windowMs };
    watched.seen = false;
    if (watched.timer !== undefined) this.#clock.clearTimeout(watched.timer);
    this.#arm(watched);
  }

  /** An event of `responseId` arrived. */
  seen(responseId: string): void {
    const hot = this.#hot;
    if (hot !== undefined && hot.responseId === responseId) {
      hot.seen = true;
      return;
    }
    if (this.#watched === undefined || this.#watched.size === 0) return;
    const watched = this.#watched.get(responseId);
    if (watched === undefined) return;
    watched.seen = true;
    this.#hot = watched;
  }

  /** `responseId` ended (or was dropped): stop watching it. */
  end(responseId: string): void {
    const watched = this.#watched?.get(responseId);
    if (watched === undefined) return;
    this.#stop(watched);
  }

  /** Stops watching everything (the connection is gone). */
  reset(): void {
    for (const watched of [...(this.#watched?.values() ?? [])]) this.#stop(watched);
  }

  #arm(watched: Watched): void {
    watched.timer = this.#clock.setTimeout(() => {
      watched.timer = undefined;
      if (watched.seen) {
        watched.seen = false;
        this.#arm(watched);
        return;
      }
      this.#stop(watched);
      this.#stale(watched.responseId, watched.blocked);
    }, watched.windowMs);
  }

  #stop(watched: Watched): void {
    if (watched.timer !== undefined) this.#clock.clearTimeout(watched.timer);
    watched.timer = undefined;
    this.#watched?.delete(watched.responseId);
    if (this.#hot === watched) this.#hot = undefined;
  }
}
