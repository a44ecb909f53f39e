import type { RealtimeAudioStreamFormatV1 } from './realtime-audio-stream-format-v1.js';
import type { RealtimeCapabilitiesV1 } from './realtime-capabilities-v1.js';
import type { RealtimeCommandV1 } from './realtime-command-v1.js';
import type { RealtimeEventV1 } from './realtime-event-v1.js';
import type { RealtimeSessionConfigV1 } from './realtime-session-config-v1.js';

/**
 * One live connection. `send` never throws for provider-side problems: those arrive as `error` events.
 * It throws `ConnectionClosedError` when the connection is not open: already closed, or found not open at the write
 * (a socket closing without having said so, a write that failed). In the latter case `status` is `closed` before
 * `send` throws and `connection_status: disconnected` follows after `send` returned. A command the connection refuses
 * before writing (one it cannot express) throws while `status` stays `open`.
 */
export interface RealtimeConnectionV1 {
  readonly status: 'open' | 'closed';
  /**
   * When the provider will end this connection's session (wall-clock epoch milliseconds), if it says so. The
   * session reads it once `connect` resolved and recycles the connection between turns shortly before; a limit
   * stated or moved later arrives as a `session_expiring` event.
   */
  readonly expiresAt?: number;
  /**
   * The session configuration the provider confirmed (its effective turn detection included), when it reports
   * one. The session decides barge-in from it rather than from what the app asked.
   */
  readonly confirmedConfig?: Readonly<RealtimeSessionConfigV1>;
  /**
   * `true` when `connect` was given a `resumeToken` and the provider resumed that conversation (it holds what the
   * token restores); otherwise this is a new conversation.
   */
  readonly resumed?: boolean;
  /**
   * The audio this connection takes (`appendInputAudio`) and puts out (`audio_delta`), when it does not follow the
   * session configuration's `inputAudioFormat` / `outputAudioFormat` (a provider with fixed formats, e.g. 16 kHz in
   * and 24 kHz out). The session converts between these and the app's formats. Absent: the configured formats.
   */
  readonly audioFormats?: {
    readonly input: RealtimeAudioStreamFormatV1;
    readonly output: RealtimeAudioStreamFormatV1;
  };
  /**
   * Whether the service plays this connection's audio to the listener (see
   * {@link RealtimeCapabilitiesV1.servicePlayback}); when present it overrides the model's flag for this connection
   * (e.g. a WebSocket session the app plays, a sideband attached to a call the service plays).
   */
  readonly servicePlayback?: boolean;
  send(command: RealtimeCommandV1): void;
  /** Subscribes to events; returns the function that unsubscribes. */
  onEvent(listener: (event: RealtimeEventV1) => void): () => void;
  /** Closes the connection; resolves when it is closed. Idempotent. */
  close(): Promise<void>;
}
