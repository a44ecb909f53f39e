/**
 * What a realtime provider promises. The session reads these to choose a strategy; a provider declares
 * `true` only for what its conformance run proves.
 */
export interface RealtimeCapabilities {
  /**
   * A reply can be generated out of band (`conversation: 'none'`) and spoken without entering the
   * conversation: its items are never added to the provider's context.
   */
  ephemeralResponse: boolean;
  /** An assistant message can be cut at an audio position (`truncateItem`), so the model forgets the rest. */
  messageTruncation: boolean;
  /** Items can be inserted (`createItem` with `previousItemId`) and deleted (`deleteItem`) mid-session. */
  mutableChatContext: boolean;
  /** The provider detects the user's turns in the audio it receives and emits speech started/stopped events. */
  turnDetection: boolean;
  /** The provider transcribes user audio and emits `input_transcription` events. */
  userTranscription: boolean;
  /** The provider speaks: responses carry `audio_delta` events (PCM16, 24 kHz, mono). */
  audioOutput: boolean;
  /** Instructions can be changed with `updateSession` after connecting (handoffs rely on it). */
  mutableInstructions: boolean;
  /** The tool set can be changed with `updateSession` after connecting (handoffs rely on it). */
  mutableTools: boolean;
  /**
   * The provider starts the follow-up response by itself after a tool output; the session must then not
   * request one.
   */
  autoToolReplyGeneration: boolean;
}

/** The names of all capability flags. */
export type RealtimeCapability = keyof RealtimeCapabilities;
