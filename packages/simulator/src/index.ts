export type { HarnessTransport } from '@parley/transport/testing';
export type { GeminiScriptedOutput, GeminiScriptedTurn } from './gemini/gemini-script.js';
export { GeminiSimSession } from './gemini/gemini-sim-session.js';
export type { GeminiSimulatorCloseCodes, GeminiSimulatorOptions } from './gemini/gemini-sim-settings.js';
export {
  type GeminiSimulator,
  type GeminiUpgradeRecord,
  startGeminiSimulator,
} from './gemini/gemini-simulator.js';
export { geminiSilence, geminiSpeech } from './gemini/gemini-speech.js';
export type {
  LiveBrain,
  LiveReaction,
  LiveScriptedCall,
  LiveToolOutput,
  LiveUtterance,
} from './live/live-brain.js';
export { liveEchoBrain } from './live/live-brain.js';
export {
  createLiveSimulatorHarness,
  type LiveHarnessResponse,
  LiveSimulatorHarness,
  type LiveSimulatorHarnessOptions,
} from './live/live-harness.js';
export type { LiveTranscriber } from './live/live-listener.js';
export type { LiveSimulatorDelegation, LiveSimulatorSession } from './live/live-sim-session.js';
export type { LiveSessionPeer, LiveSimulatorSocket } from './live/live-sim-socket.js';
export {
  type LiveRecordedClientEvent,
  type LiveSimulator,
  type LiveSimulatorOptions,
  type LiveUpgradeRecord,
  startLiveSimulator,
} from './live/live-simulator.js';
export type {
  LiveIncomingSipCallOptions,
  LiveIncomingSipCallResult,
  LivePhoneLine,
  LiveSimulatorCall,
  LiveSimulatorCallControl,
} from './live/live-sip.js';
export {
  type BrainMessage,
  type BrainOutput,
  type BrainResponse,
  type BrainTurn,
  createHold,
  echoBrain,
  type Hold,
  isHold,
  type RealtimeBrain,
  scriptedBrain,
} from './realtime/brain.js';
export { clientEventToCommand, seamCommandsOf, sessionToSeamConfig } from './realtime/seam-view.js';
export type {
  IncomingSipCallOptions,
  IncomingSipCallResult,
  SimulatorCallControl,
} from './realtime/sim-calls.js';
export type { SimulatorClientSecret } from './realtime/sim-client-secrets.js';
export type {
  EventMatcher,
  SimulatorCall,
  SimulatorConnection,
  SimulatorTarget,
  Transcriber,
} from './realtime/sim-connection.js';
export type { SimulatorConversation, StoredItem } from './realtime/sim-conversation.js';
export { g711ToPcm16, toSessionAudio } from './realtime/sim-format.js';
export type {
  BrainHostedApproval,
  BrainHostedCall,
  SimulatedMcpServer,
  SimulatedMcpTool,
} from './realtime/sim-mcp.js';
export {
  type RealtimeSimulator,
  type RealtimeSimulatorOptions,
  type RecordedClientEvent,
  type SimulatorAuth,
  type SimulatorRefusal,
  type SimulatorStrictness,
  startRealtimeSimulator,
} from './realtime/simulator.js';
export {
  createSimulatorHarness,
  type ScriptedOutput,
  type ScriptedResponse,
  SimulatorHarness,
  type SimulatorHarnessOptions,
} from './realtime/simulator-harness.js';
export { FastForwardClock, type FastForwardClockOptions } from './shared/fast-forward-clock.js';
export { SimulatorHarnessBase } from './shared/harness-base.js';
export type { IncomingSipCallWebhook } from './shared/incoming-sip-call.js';
export { DEFAULT_PACE, type SimulatorPace, type SimulatorPacing } from './shared/pace.js';
export { decodeSpeechTexts, type SpeechAudioOptions, silenceAudio, speechAudio } from './shared/sim-audio.js';
export type { SimulatorServiceError } from './shared/sim-errors.js';
export type { UpgradeRecord } from './shared/sim-server.js';
