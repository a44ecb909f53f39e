import type { Clock } from '../../../clock.js';
import { EphemeralResponseInFlightError } from '../errors.js';

/** The ephemeral response in flight. */
export interface InFlightEphemeralResponse {
  readonly clientRequestId: string;
  /** Set once the provider started it. */
  readonly responseId: string | undefined;
  /** When it was requested, on the session's clock. */
  readonly requestedAt: number;
}

/**
 * The bookkeeping of ephemeral responses (`generateResponse({ addToHistory: false })`): at most one is in
 * flight per session, from its request until its response ends, is refused, times out or is interrupted.
 * Keeping its items out of history is the history mirror's job (out-of-band responses never enter it).
 */
export class EphemeralResponses {
  readonly #clock: Clock;
  #current: { clientRequestId: string; responseId: string | undefined; requestedAt: number } | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** The ephemeral response in flight, if any. */
  get inFlight(): InFlightEphemeralResponse | undefined {
    return this.#current && { ...this.#current };
  }

  /** The error a new ephemeral response must be refused with while one is in flight, else `undefined`. */
  conflict(): EphemeralResponseInFlightError | undefined {
    const current = this.#current;
    if (!current) return undefined;
    return new EphemeralResponseInFlightError(
      current.clientRequestId,
      current.responseId,
      this.#clock.now() - current.requestedAt,
    );
  }

  /** An ephemeral response was requested with `clientRequestId`. */
  begin(clientRequestId: string): void {
    this.#current = { clientRequestId, responseId: undefined, requestedAt: this.#clock.now() };
  }

  /** The provider started `responseId` for `clientRequestId`. */
  started(clientRequestId: string | undefined, responseId: string): void {
    if (this.#current && clientRequestId === this.#current.clientRequestId)
      this.#current.responseId = responseId;
  }

  /** A request ended (refused, timed out) or its response is done: frees the slot if it was the ephemeral one. */
  ended(clientRequestId: string | undefined, responseId?: string): void {
    const current = this.#current;
    if (!current) return;
    const ours =
      (clientRequestId !== undefined && clientRequestId === current.clientRequestId) ||
      (responseId !== undefined && responseId === current.responseId);
    if (ours) this.#current = undefined;
  }

  /** Frees the slot and returns what was in flight (an interruption is stopping it). */
  release(): InFlightEphemeralResponse | undefined {
    const current = this.#current;
    this.#current = undefined;
    return current;
  }

  /**
   * Drains all ephemeral bookkeeping, so the next ephemeral response is not blocked by one that will never
   * end. Called whenever the session releases its connection (disconnect, reconnect, close).
   */
  reset(): void {
    this.#current = undefined;
  }
}
