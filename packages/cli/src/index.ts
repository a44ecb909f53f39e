export { toPcm16Mono } from './audio/resample.js';
export { type DecodedAudio, decodeWav, encodeWav, WavFormatError } from './audio/wav.js';
export type { CliIO } from './cli/command.js';
export { CliUsageError, MissingEnvironmentError } from './cli/errors.js';
export { type DemoSummary, runSupportDemo } from './demo/run-demo.js';
export {
  type GeminiDemoOptions,
  type GeminiDemoSummary,
  runGeminiDemo,
} from './gemini-demo/run-gemini-demo.js';
export type { BankToolCall } from './live-demo/live-script.js';
export { type LiveDemoOptions, type LiveDemoSummary, runLiveDemo } from './live-demo/run-live-demo.js';
export { main } from './main.js';
export type { Output } from './output.js';
export { PHONE_PROVIDERS, type PhoneProviderName } from './phone/phone-provider.js';
export { type PhoneCallOptions, type PhoneCallSummary, runPhoneCall } from './phone/run-phone-call.js';
export { runSipPhoneCall } from './phone/run-sip-call.js';
export type { RealtimeProviderName } from './providers/realtime-target.js';
export {
  DEFAULT_DEMO_MEMORY_DIR,
  runVoiceDemo,
  type VoiceDemoOptions,
  type VoiceDemoResult,
} from './voice-demo/run-voice-demo.js';
export { VoiceDemoStalledError } from './voice-demo/step-guard.js';
export type { VoiceDemoSummary } from './voice-demo/voice-call.js';
