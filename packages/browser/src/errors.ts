import { ParleyError } from '@parley/core';

/** Why browser audio could not start or stopped. */
export type BrowserVoiceErrorCode =
  /** The user or the browser's policy refused the microphone (`NotAllowedError`, `SecurityError`). */
  | 'microphone_permission_denied'
  /** No microphone matches the constraints (`NotFoundError`, `OverconstrainedError`). */
  | 'microphone_not_found'
  /** The microphone exists but could not be opened (in use by another app, a hardware error). */
  | 'microphone_unavailable'
  /** The page is not a secure context (https or localhost), so `navigator.mediaDevices` does not exist. */
  | 'insecure_context'
  /** This browser has no `AudioContext` or no `AudioWorklet`. */
  | 'audio_unsupported'
  /** The worklet module did not load (a Content Security Policy without `blob:` in `worker-src`, a bad `workletUrl`). */
  | 'worklet_load_failed'
  /** The `AudioContext` did not start within `startTimeoutMs` (usually: not called from a user gesture). */
  | 'audio_context_not_running'
  /**
   * The microphone stopped by itself after the start: unplugged, its permission revoked, or ended by the browser or
   * the system. Reported to `microphone.onEnded` and `voice.microphoneError`; the helper has released it.
   */
  | 'microphone_ended'
  /** `close()` was called while starting. */
  | 'closed'
  /** Invalid options. */
  | 'invalid_option';

/** An error of `@parley/browser`, with a stable `code` and a message that says what to do. */
export class BrowserVoiceError extends ParleyError {
  declare readonly code: BrowserVoiceErrorCode;

  constructor(code: BrowserVoiceErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
