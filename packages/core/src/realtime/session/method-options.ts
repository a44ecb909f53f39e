import { optionKeys } from '../../option-keys.js';
import type { GenerateResponseOptions } from './responses/response-generation.js';

/** The valid keys of the options each {@link RealtimeSession} method takes. */
export const SEND_MESSAGE_OPTIONS = optionKeys<{ respond?: boolean }>('sendMessage() options', {
  respond: true,
});
export const SEND_AUDIO_OPTIONS = optionKeys<{ commit?: boolean }>('sendAudio() options', { commit: true });
export const COMMIT_AUDIO_OPTIONS = optionKeys<{ respond?: boolean }>('commitAudio() options', {
  respond: true,
});
export const GENERATE_REPLY_OPTIONS = optionKeys<GenerateResponseOptions>('generateResponse() options', {
  instructions: true,
  toolChoice: true,
  addToHistory: true,
});
export const APPEND_CONTEXT_OPTIONS = optionKeys<{ delegationId?: string }>('appendContext() options', {
  delegationId: true,
});
