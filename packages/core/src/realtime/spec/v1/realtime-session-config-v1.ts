import type { RealtimeAudioFormatV1 } from './realtime-audio-format-v1.js';
import type { RealtimeToolChoiceV1 } from './realtime-tool-choice-v1.js';
import type { RealtimeToolDefinitionV1 } from './realtime-tool-definition-v1.js';
import type { RealtimeTurnDetectionV1 } from './realtime-turn-detection-v1.js';

/** The provider-neutral session configuration. Fields left out keep their current value. */
export interface RealtimeSessionConfigV1 {
  instructions?: string;
  tools?: RealtimeToolDefinitionV1[];
  toolChoice?: RealtimeToolChoiceV1;
  /** `['audio']` (the default: audio with a transcript) or `['text']`. */
  outputModalities?: ('text' | 'audio')[];
  voice?: string;
  /** `null` turns detection off (push-to-talk). */
  turnDetection?: RealtimeTurnDetectionV1 | null;
  /** User-audio transcription; `null` turns it off. */
  inputTranscription?: { model?: string; language?: string } | null;
  /** The encoding of the user audio the app appends. Default `pcm16`. */
  inputAudioFormat?: RealtimeAudioFormatV1;
  /**
   * The encoding of the model's audio: `audio` events carry it, and the session counts played and truncated
   * milliseconds by its byte rate. Default `pcm16`. Set it in the session's connect configuration.
   */
  outputAudioFormat?: RealtimeAudioFormatV1;
  /** Provider-specific options, merged into the provider's own session object. */
  providerData?: Record<string, unknown>;
}
