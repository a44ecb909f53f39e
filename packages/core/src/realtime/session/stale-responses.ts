import type { Clock, TimerHandle } from '../../clock.js';
import type { BlockedRequest } from './errors.js';

interface Watched {
  readonly responseId: string;
  /** Events of the response so far. */
  events: number;
  /** `events` at the last check. */
  checked: number;
  timer: TimerHandle | undefined;
}

/**
 * Bounds how long a started response may go silent: each response the provider started and has not ended is
 * checked every `staleMs` on the session's clock, and one that sent no event during a whole check is handed to
 * `stale` (so it is dropped between one and two `staleMs` after its last event). A response that blocks a request
 * can be dropped sooner, when it sent nothing since a mark ({@link progress}, {@link dropIfSilentSince}). Marking
 * an event costs a counter increment: the response that sent the last event is checked first, before any lookup.
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
    const watched: Watched = { responseId, events: 0, checked: 0, timer: undefined };
    this.#watched ??= new Map();
    this.#watched.set(responseId, watched);
    this.#arm(watched);
  }

  /** An event of `responseId` arrived. */
  seen(responseId: string): void {
    const hot = this.#hot;
    if (hot !== undefined && hot.responseId === responseId) {
      hot.events++;
      return;
    }
    if (this.#watched === undefined || this.#watched.size === 0) return;
    const watched = this.#watched.get(responseId);
    if (watched === undefined) return;
    watched.events++;
    this.#hot = watched;
  }

  /** How many events `responseId` sent so far (a mark for {@link dropIfSilentSince}); `undefined` if not watched. */
  progress(responseId: string): number | undefined {
    return this.#watched?.get(responseId)?.events;
  }

  /**
   * Drops `responseId` as stale now if it sent no event since `mark` (its {@link progress} then) while `blocked`
   * waited behind it; `true` if it was handed to `stale`.
   */
  dropIfSilentSince(responseId: string, mark: number, blocked: BlockedRequest): boolean {
    const watched = this.#watched?.get(responseId);
    if (watched === undefined || watched.events !== mark) return false;
    this.#stop(watched);
    this.#stale(responseId, blocked);
    return true;
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
      if (watched.events !== watched.checked) {
        watched.checked = watched.events;
        this.#arm(watched);
        return;
      }
      this.#stop(watched);
      this.#stale(watched.responseId);
    }, this.staleMs);
  }

  #stop(watched: Watched): void {
    if (watched.timer !== undefined) this.#clock.clearTimeout(watched.timer);
    watched.timer = undefined;
    this.#watched?.delete(watched.responseId);
    if (this.#hot === watched) this.#hot = undefined;
  }
}
