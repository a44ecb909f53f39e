export { type BrowserVoice, connectBrowserVoice } from './browser-voice.js';
export { BrowserVoiceError, type BrowserVoiceErrorCode } from './errors.js';
export { DEFAULT_MICROPHONE_CONSTRAINTS } from './microphone.js';
export type { BrowserVoiceOptions, MicrophoneOptions, SpeakerOptions } from './options.js';
export type { PlaybackStop } from './speaker.js';
export { workletSource } from './worklet-module.js';
