import type { ToolChoice } from '../../../model.js';
import type { RealtimeAudioFormat } from '../../audio.js';
import type { RealtimeToolDefinitionV1 } from './realtime-tool-definition-v1.js';
import type { RealtimeTurnDetectionV1 } from './realtime-turn-detection-v1.js';

/** The provider-neutral session configuration. Fields left out keep their current value. */
export interface RealtimeSessionConfigV1 {
  instructions?: string;
  tools?: RealtimeToolDefinitionV1[];
  toolChoice?: ToolChoice;
  /** `['audio']` (the default: audio with a transcript) or `['text']`. */
  outputModalities?: ('text' | 'audio')[];
  voice?: string;
  /** `null` turns detection off (push-to-talk). */
  turnDetection?: RealtimeTurnDetectionV1 | null;
  /** User-audio transcription; `null` turns it off. */
  inputTranscription?: { model?: string; language?: string } | null;
  /** The encoding of the user audio the app appends. Default `pcm16`. */
  inputAudioFormat?: RealtimeAudioFormat;
  /**
   * The encoding of the model's audio: `audio` events carry it, and the session counts played and truncated
   * milliseconds by its byte rate. Default `pcm16`. Set it in the session's connect configuration.
   */
  outputAudioFormat?: RealtimeAudioFormat;
  /** Provider-specific options, merged into the provider's own session object. */
  providerData?: Record<string, unknown>;
}
