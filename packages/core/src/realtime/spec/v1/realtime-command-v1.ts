import type { RealtimeAppendContextCommandV1 } from './realtime-append-context-command-v1.js';
import type { RealtimeCreateResponseCommandV1 } from './realtime-create-response-command-v1.js';
import type { RealtimeItemInputV1 } from './realtime-item-input-v1.js';
import type { RealtimeSessionConfigV1 } from './realtime-session-config-v1.js';

/** The closed set of commands a session sends to a connection: exactly what the session produces. */
export type RealtimeCommandV1 =
  | { type: 'updateSession'; config: RealtimeSessionConfigV1 }
  | { type: 'appendInputAudio'; audio: Uint8Array }
  | { type: 'commitInputAudio' }
  /** Adds an item at the end of the conversation. */
  | { type: 'createItem'; item: RealtimeItemInputV1 }
  | { type: 'deleteItem'; itemId: string }
  /**
   * Cut an assistant message at the audio the listener heard: its first `audioEndMs` milliseconds (whole
   * milliseconds) stay in the provider's context, the rest is forgotten (providers with `messageTruncation`).
   */
  | { type: 'truncateItem'; itemId: string; audioEndMs: number }
  | RealtimeCreateResponseCommandV1
  /** Cancel a response; without `responseId`, the active default-conversation response. */
  | { type: 'cancelResponse'; responseId?: string }
  /**
   * Stop the assistant audio the service is playing to the listener, and drop what it has not played yet (only where
   * the service plays the audio: `servicePlayback`). The service cuts the message where playback stopped.
   */
  | { type: 'clearOutputAudio' }
  /** Adds a function call's output to the conversation; does not start a response by itself. */
  | { type: 'sendToolOutput'; callId: string; output: string }
  | RealtimeAppendContextCommandV1;
