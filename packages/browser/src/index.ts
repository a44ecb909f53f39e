/// <reference lib="dom" preserve="true" />
// Browser code: its declarations name DOM types, so a project that imports it gets the DOM library.
export { BrowserPlaybackTracker } from './browser-playback-tracker.js';
export { type BrowserVoice, connectBrowserVoice } from './browser-voice.js';
export { type CallAudio, type CallAudioOptions, openCallAudio } from './call-audio.js';
export { BrowserVoiceError, type BrowserVoiceErrorCode } from './errors.js';
export { DEFAULT_MICROPHONE_CONSTRAINTS } from './microphone.js';
export type { BrowserVoiceOptions, MicrophoneOptions, SpeakerOptions } from './options.js';
export type { PlaybackStop } from './speaker.js';
export { workletSource } from './worklet-module.js';
