import type { RealtimeCommandV1 } from './realtime-command-v1.js';
import type { RealtimeContextAppendedEventV1 } from './realtime-context-appended-event-v1.js';
import type { RealtimeDelegationRequestedEventV1 } from './realtime-delegation-requested-event-v1.js';
import type { RealtimeFunctionCallCancelledEventV1 } from './realtime-function-call-cancelled-event-v1.js';
import type { RealtimeItemV1 } from './realtime-item-v1.js';
import type { RealtimeOutputSilenceEventV1 } from './realtime-output-silence-event-v1.js';
import type { RealtimeResponseEndReasonV1 } from './realtime-response-end-reason-v1.js';
import type { RealtimeResponseStatusV1 } from './realtime-response-status-v1.js';
import type { RealtimeResumeTokenEventV1 } from './realtime-resume-token-event-v1.js';
import type { RealtimeSessionExpiredEventV1 } from './realtime-session-expired-event-v1.js';
import type { RealtimeSessionExpiringEventV1 } from './realtime-session-expiring-event-v1.js';
import type { RealtimeUsageUpdatedEventV1 } from './realtime-usage-updated-event-v1.js';
import type { RealtimeUsageV1 } from './realtime-usage-v1.js';

/** The closed set of normalized events a connection emits: exactly what the session consumes. */
export type RealtimeEventV1 =
  /** The connection ended (`disconnected`), with a human-readable reason. */
  | { type: 'connection_status'; status: 'connected' | 'disconnected'; reason?: string }
  | RealtimeSessionExpiringEventV1
  | RealtimeSessionExpiredEventV1
  | RealtimeResumeTokenEventV1
  | {
      type: 'response_started';
      responseId: string;
      /** The `clientRequestId` of the request that created it; absent for provider-initiated responses. */
      clientRequestId?: string;
      conversation: 'default' | 'none';
    }
  | {
      type: 'response_done';
      responseId: string;
      status: RealtimeResponseStatusV1;
      conversation: 'default' | 'none';
      clientRequestId?: string;
      usage?: RealtimeUsageV1;
      /** Why it ended, when not `completed` and the provider says. */
      reason?: RealtimeResponseEndReasonV1;
      /** With `reason: 'provider_error'`: the provider's error code. */
      errorCode?: string;
    }
  | { type: 'message_started'; responseId: string; itemId: string }
  | { type: 'message_done'; responseId: string; itemId: string; item: RealtimeItemV1 }
  | { type: 'text_delta'; responseId: string; itemId: string; delta: string }
  /**
   * Audio in the connection's output format: its `audioFormats.output` when it declares one, else the
   * `outputAudioFormat` the session configured (PCM16 24 kHz mono by default, or G.711). The session may keep the
   * buffer; a provider must not reuse it.
   */
  | { type: 'audio_delta'; responseId: string; itemId: string; audio: Uint8Array }
  | { type: 'audio_done'; responseId: string; itemId: string }
  | { type: 'transcript_delta'; responseId: string; itemId: string; delta: string }
  | { type: 'transcript_done'; responseId: string; itemId: string; transcript: string }
  | {
      type: 'function_call';
      /** Absent when the provider gives none; the session then starts a response after each output. */
      responseId?: string;
      itemId: string;
      callId: string;
      name: string;
      arguments: string;
    }
  | RealtimeFunctionCallCancelledEventV1
  | { type: 'input_speech_started' }
  | { type: 'input_speech_stopped' }
  | { type: 'input_audio_committed'; itemId: string }
  | { type: 'input_transcription'; itemId: string; text: string; final: boolean }
  /** An item entered the provider's conversation (user messages, tool outputs, created items). */
  | { type: 'item_added'; item: RealtimeItemV1; previousItemId?: string | null }
  | { type: 'item_deleted'; itemId: string }
  /**
   * The provider cut an assistant message's audio; `heardMs` is where (when it says): with `servicePlayback`, the
   * point the listener stopped hearing it.
   */
  | { type: 'item_truncated'; itemId: string; heardMs?: number }
  /**
   * `servicePlayback` only: the service started playing a response's audio to the listener (`responseId` when it
   * names the response).
   */
  | { type: 'output_audio_started'; responseId?: string }
  /** `servicePlayback` only: the service played all the audio it had (the listener heard it to its end). */
  | { type: 'output_audio_stopped'; responseId?: string }
  /** `servicePlayback` only: the service dropped the audio it had not played yet (after `clearOutputAudio`). */
  | { type: 'output_audio_cleared'; responseId?: string }
  | RealtimeDelegationRequestedEventV1
  | RealtimeContextAppendedEventV1
  | RealtimeOutputSilenceEventV1
  | RealtimeUsageUpdatedEventV1
  | {
      type: 'error';
      /** The provider's error code, passed to the app as is; the session never branches on it. */
      code: string;
      message: string;
      /** The `clientRequestId` of the response request this error refuses, when it refuses one. */
      clientRequestId?: string;
      /**
       * The command this error refuses, when the provider says. The session reads `createResponse`: a refused
       * response request releases its queue even when the provider does not name the request.
       */
      commandType?: RealtimeCommandV1['type'];
      /** `true` when the connection cannot be used any more. */
      fatal?: boolean;
    }
  /**
   * The provider's original event, before normalization, emitted ahead of the events normalized from it.
   * Only when the connection was opened with `rawEvents: true`.
   */
  | { type: 'raw_event'; event: unknown };
