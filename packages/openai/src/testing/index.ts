export type { HarnessTransport } from '@parley/transport/testing';
export type { JsonObject } from '../shared/deep-merge.js';
export type {
  LiveAppendKind,
  LiveBackendItem,
  LiveBackendResponse,
  LiveBackendStreamEvent,
  LiveContextAppended,
  LiveDecisionItemCreated,
  LiveDecisionItemDeleted,
  LiveDecisionMessage,
  LiveDelegationCreated,
  LiveDelegationTarget,
  LiveErrorEvent,
  LiveFixturePlayed,
  LiveFixturePlaying,
  LiveInfoEvent,
  LiveInputAudioMuted,
  LiveInputAudioReflection,
  LiveInputAudioUnmuted,
  LiveOutputAudioDelta,
  LiveResponseEvent,
  LiveServerEvent,
  LiveServerEventBase,
  LiveSessionClosed,
  LiveSessionStarted,
  LiveSessionUpdated,
  LiveTimelineSpan,
  LiveTranscriptDelta,
  LiveTransportEvent,
  LiveUsageUpdated,
} from '../shared/live-wire-events.js';
export type {
  LiveAudioFormat,
  LiveCloseReason,
  LiveDecisionQuestion,
  LiveDecisionTrigger,
  LiveDelegationConfig,
  LiveFunctionTool,
  LiveHostedTool,
  LiveInitialItem,
  LiveResponsesBackend,
  LiveSessionConfig,
  LiveSessionResource,
  LiveUsage,
  LiveVoice,
} from '../shared/live-wire-session.js';
export type {
  WireContentPart,
  WireError,
  WireItem,
  WireResponseCreateParams,
} from '../shared/realtime-wire.js';
export {
  WIRE_CLIENT_EVENT_TYPES,
  WIRE_SERVER_EVENT_TYPES,
  type WireClientEvent,
  type WireClientEventFields,
  type WireClientEventType,
  type WireContentIds,
  type WireRateLimit,
  type WireResponse,
  type WireResponsePart,
  type WireServerEvent,
  type WireServerEventFields,
  type WireServerEventType,
  type WireTranscriptionUsage,
  type WireUsage,
} from '../shared/realtime-wire-events.js';
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
} from './brain.js';
export { FastForwardClock, type FastForwardClockOptions } from './fast-forward-clock.js';
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
export type { LiveSimulatorSocket } from './live/live-sim-socket.js';
export {
  type LiveRecordedClientEvent,
  type LiveSimulator,
  type LiveSimulatorOptions,
  type LiveUpgradeRecord,
  startLiveSimulator,
} from './live/live-simulator.js';
export { DEFAULT_PACE, type SimulatorPace, type SimulatorPacing } from './pace.js';
export { clientEventToCommand, seamCommandsOf, sessionToSeamConfig } from './seam-view.js';
export { decodeSpeechTexts, type SpeechAudioOptions, silenceAudio, speechAudio } from './sim-audio.js';
export type {
  EventMatcher,
  SimulatorCall,
  SimulatorConnection,
  SimulatorTarget,
  Transcriber,
} from './sim-connection.js';
export type { SimulatorConversation, StoredItem } from './sim-conversation.js';
export type { SimulatorServiceError } from './sim-errors.js';
export { g711ToPcm16, toSessionAudio } from './sim-format.js';
export type { UpgradeRecord } from './sim-server.js';
export {
  type RealtimeSimulator,
  type RealtimeSimulatorOptions,
  type RecordedClientEvent,
  type SimulatorAuth,
  type SimulatorRefusal,
  type SimulatorStrictness,
  startRealtimeSimulator,
} from './simulator.js';
export {
  createSimulatorHarness,
  type ScriptedOutput,
  type ScriptedResponse,
  SimulatorHarness,
  type SimulatorHarnessOptions,
} from './simulator-harness.js';
