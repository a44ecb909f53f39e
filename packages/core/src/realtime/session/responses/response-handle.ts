import type { RealtimeResponseStatus } from '../../seam.js';

/** How a requested response ended. */
export interface ResponseResult {
  responseId: string;
  status: RealtimeResponseStatus;
}

/**
 * What `generateResponse()` returns: a promise of the response id, resolved once the provider started the
 * response. It rejects with `ResponseRefusedError` (the provider refused), `ResponseTimeoutError`,
 * `ConnectionLostError` or `SessionClosedError`. Rejections are also reported as `error` events, so a
 * handle nobody awaits never becomes an unhandled rejection.
 */
export type ResponseHandle = Promise<string> & {
  /** The id the session sent with the request (`createResponse.clientRequestId`). */
  readonly clientRequestId: string;
  /** Resolves when the response ends; rejects like the handle when it never starts. */
  readonly done: Promise<ResponseResult>;
};

/** The session's side of a {@link ResponseHandle}. */
export class ResponseWaiter {
  readonly handle: ResponseHandle;
  responseId: string | undefined;
  #resolveStarted!: (responseId: string) => void;
  #rejectStarted!: (error: unknown) => void;
  #resolveDone!: (result: ResponseResult) => void;
  #rejectDone!: (error: unknown) => void;

  constructor(clientRequestId: string) {
    const started = new Promise<string>((resolve, reject) => {
      this.#resolveStarted = resolve;
      this.#rejectStarted = reject;
    });
    const done = new Promise<ResponseResult>((resolve, reject) => {
      this.#resolveDone = resolve;
      this.#rejectDone = reject;
    });
    // Failures also surface as `error` events; these keep an un-awaited handle from crashing the process.
    started.catch(() => {});
    done.catch(() => {});
    this.handle = Object.assign(started, { clientRequestId, done });
  }

  started(responseId: string): void {
    this.responseId = responseId;
    this.#resolveStarted(responseId);
  }

  finished(result: ResponseResult): void {
    this.#resolveDone(result);
  }

  fail(error: unknown): void {
    this.#rejectStarted(error);
    this.#rejectDone(error);
  }
}
