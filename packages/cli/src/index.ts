export type { CliIO } from './cli/command.js';
export { CliUsageError, MissingEnvironmentError } from './cli/errors.js';
export { type DemoSummary, runSupportDemo } from './demo/run-demo.js';
export { main } from './main.js';
export type { Output } from './output.js';
export { runVoiceDemo, type VoiceDemoOptions } from './voice-demo/run-voice-demo.js';
export { VoiceDemoStalledError } from './voice-demo/step-guard.js';
export type { VoiceDemoSummary } from './voice-demo/voice-call.js';
