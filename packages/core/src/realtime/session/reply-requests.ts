import type { Clock, TimerHandle } from '../../clock.js';
import type { RealtimeResponseStatus } from '../seam.js';
import { ReplyTimeoutError } from './errors.js';
import { type ReplyHandle, ReplyWaiter } from './reply-handle.js';

/**
 * The session's side of its response requests: the client request ids it sends, the handles
 * `generateReply()` returned (until their response ends or they fail), and the reply timeout of each
 * request on the wire (until the provider starts, ends or refuses it).
 */
export class ReplyRequests {
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  readonly #waiters = new Map<string, ReplyWaiter>();
  readonly #timers = new Map<string, TimerHandle>();
  readonly #prefix = `req_${Math.random().toString(36).slice(2, 8)}_`;
  #seq = 0;

  constructor(clock: Clock, timeoutMs: number) {
    this.#clock = clock;
    this.#timeoutMs = timeoutMs;
  }

  /** How many `generateReply()` handles are still waiting. */
  get waiting(): number {
    return this.#waiters.size;
  }

  /** A fresh client request id, unique within the session. */
  nextId(): string {
    return `${this.#prefix}${++this.#seq}`;
  }

  /** The handle of request `clientRequestId`, settled by `started`, `responseDone` and `fail`. */
  wait(clientRequestId: string): ReplyHandle {
    const waiter = new ReplyWaiter(clientRequestId);
    this.#waiters.set(clientRequestId, waiter);
    return waiter.handle;
  }

  /** A handle, under a fresh id, already rejected with `error`: for a request refused before it was made. */
  rejected(error: unknown): ReplyHandle {
    const waiter = new ReplyWaiter(this.nextId());
    waiter.fail(error);
    return waiter.handle;
  }

  /** The provider started `responseId` for `clientRequestId`: its timeout stops, its handle resolves. */
  started(clientRequestId: string, responseId: string): void {
    this.stopTimeout(clientRequestId);
    this.#waiters.get(clientRequestId)?.started(responseId);
  }

  /** Response `responseId` ended: the handles it started are done. */
  responseDone(responseId: string, status: RealtimeResponseStatus): void {
    for (const [id, waiter] of this.#waiters) {
      if (waiter.responseId !== responseId) continue;
      waiter.finished({ responseId, status });
      this.#waiters.delete(id);
    }
  }

  /** Rejects the handle of `clientRequestId` (if any) with `error` and forgets it. */
  fail(clientRequestId: string, error: unknown): void {
    this.#waiters.get(clientRequestId)?.fail(error);
    this.#waiters.delete(clientRequestId);
  }

  /** Rejects every waiting handle with `reason` (the connection is gone). */
  failAll(reason: unknown): void {
    for (const waiter of this.#waiters.values()) waiter.fail(reason);
    this.#waiters.clear();
  }

  /** Starts the reply timeout of a request just sent: `onTimeout` runs unless it is stopped first. */
  startTimeout(clientRequestId: string, onTimeout: (error: ReplyTimeoutError) => void): void {
    const timer = this.#clock.setTimeout(() => {
      this.#timers.delete(clientRequestId);
      onTimeout(new ReplyTimeoutError(clientRequestId, this.#timeoutMs));
    }, this.#timeoutMs);
    this.#timers.set(clientRequestId, timer);
  }

  /** Stops the reply timeout of `clientRequestId`, if it runs. */
  stopTimeout(clientRequestId: string): void {
    const timer = this.#timers.get(clientRequestId);
    if (timer === undefined) return;
    this.#clock.clearTimeout(timer);
    this.#timers.delete(clientRequestId);
  }

  /** Stops every reply timeout. */
  stopTimeouts(): void {
    for (const id of [...this.#timers.keys()]) this.stopTimeout(id);
  }
}
