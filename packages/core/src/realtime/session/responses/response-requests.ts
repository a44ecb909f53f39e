import type { Clock, TimerHandle } from '../../../clock.js';
import type { RealtimeResponseStatus } from '../../seam.js';
import { ResponseTimeoutError } from '../errors.js';
import { type ResponseHandle, ResponseWaiter } from './response-handle.js';

/**
 * The session's side of its response requests: the client request ids it sends, the handles
 * `generateResponse()` returned (until their response ends or they fail), and the response timeout of each
 * request on the wire (until the provider starts, ends or refuses it).
 */
/** What the session holds for one request id: its `generateResponse()` handle and/or its response timeout. */
interface Request {
  waiter?: ResponseWaiter;
  timer?: TimerHandle;
}

export class ResponseRequests {
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  /** Created on first use: an idle session holds none. */
  #requests: Map<string, Request> | undefined;
  #waiting = 0;
  readonly #prefix = `req_${Math.random().toString(36).slice(2, 8)}_`;
  #seq = 0;

  constructor(clock: Clock, timeoutMs: number) {
    this.#clock = clock;
    this.#timeoutMs = timeoutMs;
  }

  /** How many `generateResponse()` handles are still waiting. */
  get waiting(): number {
    return this.#waiting;
  }

  /** A fresh client request id, unique within the session. */
  nextId(): string {
    return `${this.#prefix}${++this.#seq}`;
  }

  #entry(id: string): Request {
    this.#requests ??= new Map();
    const requests = this.#requests;
    let entry = requests.get(id);
    if (!entry) {
      entry = {};
      requests.set(id, entry);
    }
    return entry;
  }

  #forget(id: string, entry: Request): void {
    if (entry.waiter === undefined && entry.timer === undefined) this.#requests?.delete(id);
  }

  #dropWaiter(id: string, entry: Request): void {
    if (entry.waiter === undefined) return;
    entry.waiter = undefined;
    this.#waiting--;
    this.#forget(id, entry);
  }

  /** The handle of request `clientRequestId`, settled by `started`, `responseDone` and `fail`. */
  wait(clientRequestId: string): ResponseHandle {
    const waiter = new ResponseWaiter(clientRequestId);
    const entry = this.#entry(clientRequestId);
    if (entry.waiter === undefined) this.#waiting++;
    entry.waiter = waiter;
    return waiter.handle;
  }

  /** A handle, under a fresh id, already rejected with `error`: for a request refused before it was made. */
  rejected(error: unknown): ResponseHandle {
    const waiter = new ResponseWaiter(this.nextId());
    waiter.fail(error);
    return waiter.handle;
  }

  /** The provider started `responseId` for `clientRequestId`: its timeout stops, its handle resolves. */
  started(clientRequestId: string, responseId: string): void {
    this.stopTimeout(clientRequestId);
    this.#requests?.get(clientRequestId)?.waiter?.started(responseId);
  }

  /** Response `responseId` ended: the handles it started are done. */
  responseDone(responseId: string, status: RealtimeResponseStatus): void {
    if (this.#waiting === 0 || !this.#requests) return;
    for (const [id, entry] of this.#requests) {
      if (entry.waiter?.responseId !== responseId) continue;
      entry.waiter.finished({ responseId, status });
      this.#dropWaiter(id, entry);
    }
  }

  /** Rejects the handle of `clientRequestId` (if any) with `error` and forgets it. */
  fail(clientRequestId: string, error: unknown): void {
    const entry = this.#requests?.get(clientRequestId);
    if (!entry) return;
    entry.waiter?.fail(error);
    this.#dropWaiter(clientRequestId, entry);
  }

  /** Rejects every waiting handle with `reason` (the connection is gone). */
  failAll(reason: unknown): void {
    if (this.#waiting === 0 || !this.#requests) return;
    for (const [id, entry] of this.#requests) {
      entry.waiter?.fail(reason);
      this.#dropWaiter(id, entry);
    }
  }

  /**
   * Starts the response timeout of a request just made (queued or sent): `onTimeout` runs unless it is stopped
   * first. A timeout that already runs for it (started when it was queued) keeps running.
   */
  startTimeout(clientRequestId: string, onTimeout: (error: ResponseTimeoutError) => void): void {
    const entry = this.#entry(clientRequestId);
    if (entry.timer !== undefined) return;
    entry.timer = this.#clock.setTimeout(() => {
      entry.timer = undefined;
      this.#forget(clientRequestId, entry);
      onTimeout(new ResponseTimeoutError(clientRequestId, this.#timeoutMs));
    }, this.#timeoutMs);
  }

  /** Stops the response timeout of `clientRequestId`, if it runs. */
  stopTimeout(clientRequestId: string): void {
    const entry = this.#requests?.get(clientRequestId);
    if (entry?.timer === undefined) return;
    this.#clock.clearTimeout(entry.timer);
    entry.timer = undefined;
    this.#forget(clientRequestId, entry);
  }

  /** Stops every response timeout. */
  stopTimeouts(): void {
    if (!this.#requests) return;
    for (const id of [...this.#requests.keys()]) this.stopTimeout(id);
  }
}
