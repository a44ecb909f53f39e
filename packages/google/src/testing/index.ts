/**
 * `@parley/google/testing`: a Gemini Live simulator on loopback (setup validation, server VAD and activity signals,
 * paced model turns with audio and transcriptions, interruption, tool calls and cancellations, `goAway`, resumption
 * handles, close codes, usage) and the speech it understands.
 */
export type { GeminiScriptedOutput, GeminiScriptedTurn } from './gemini-script.js';
export { GeminiSimSession } from './gemini-sim-session.js';
export type { GeminiSimulatorCloseCodes, GeminiSimulatorOptions } from './gemini-sim-settings.js';
export { type GeminiSimulator, type GeminiUpgradeRecord, startGeminiSimulator } from './gemini-simulator.js';
export { geminiSilence, geminiSpeech } from './sim-speech.js';
