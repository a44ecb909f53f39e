import type { MediaStreamStart } from './media-stream-messages.js';

/** Why a call ended. */
export type TwilioCallEndReason =
  /** Twilio sent `stop` (the caller hung up, or the TwiML moved on). */
  | 'stop'
  /** The WebSocket closed without a `stop` (a dropped connection). */
  | 'socket_closed'
  /** The app ended it (`call.hangUp()`, or the server closed). */
  | 'hang_up'
  /** The session closed, or could not run the call (see the `error` event before it). */
  | 'session_ended';

/** What a {@link TwilioCall} reports to the app. */
export type TwilioCallEvent =
  | { readonly type: 'start'; readonly start: MediaStreamStart }
  /** The caller pressed a key: `0`–`9`, `*`, `#` (and `A`–`D` on some phones). */
  | { readonly type: 'dtmf'; readonly digit: string }
  /** Something failed; the call goes on unless `fatal`. */
  | {
      readonly type: 'error';
      readonly code: string;
      readonly message: string;
      readonly error: Error;
      readonly fatal: boolean;
    }
  /** The call is over: the session is closed (when the call owns it) and every resource released. */
  | { readonly type: 'ended'; readonly reason: TwilioCallEndReason };

export type TwilioCallEventType = TwilioCallEvent['type'];
export type TwilioCallEventOf<T extends TwilioCallEventType> = Extract<TwilioCallEvent, { type: T }>;

type Listener = (event: TwilioCallEvent) => void;

/** Listeners of a call's events; a listener that throws does not stop the others. */
export class CallEvents {
  readonly #listeners = new Map<TwilioCallEventType, Set<Listener>>();

  on<T extends TwilioCallEventType>(type: T, listener: (event: TwilioCallEventOf<T>) => void): () => void {
    let set = this.#listeners.get(type);
    if (!set) {
      set = new Set();
      this.#listeners.set(type, set);
    }
    const wrapped = listener as Listener;
    set.add(wrapped);
    return () => set.delete(wrapped);
  }

  emit(event: TwilioCallEvent): void {
    for (const listener of [...(this.#listeners.get(event.type) ?? [])]) {
      try {
        listener(event);
      } catch (error) {
        if (event.type === 'error') continue;
        const cause = error instanceof Error ? error : new Error(String(error));
        this.emit({
          type: 'error',
          code: 'listener_failed',
          message: cause.message,
          error: cause,
          fatal: false,
        });
      }
    }
  }
}
