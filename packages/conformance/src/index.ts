export { codeRegion } from './code-region.js';
export { type EscapeWatch, escapeWatch } from './escape-watch.js';
export {
  type CommandMatch,
  type HarnessOutput,
  type HarnessResponse,
  isCompoundResponse,
  type RealtimeHarness,
  type RealtimeHarnessFactory,
  type SteppedClock,
} from './harness.js';
export {
  type CapabilityStatus,
  type CapabilityVerdict,
  type ConformanceReport,
  formatReport,
  harnessSkips,
} from './report.js';
export { type CapabilityProbe, type ConformanceOptions, judgeCapabilities, runConformance } from './run.js';
export {
  type RunScenarioOptions,
  runScenario,
  type ScenarioResult,
  type ScenarioStatus,
} from './run-scenario.js';
export {
  type ConformanceScenario,
  missingCapabilities,
  ScenarioSkippedError,
  scenarioCovers,
} from './scenario.js';
export { approvalScenario } from './scenarios/approval.js';
export { audioResponseScenario } from './scenarios/audio-response.js';
export { backgroundResultScenario } from './scenarios/background-result.js';
export {
  callbackSignalScenario,
  closeRetryScenario,
  iterationEndScenario,
  staleResponseScenario,
} from './scenarios/bounded-waits.js';
export { delegationScenario } from './scenarios/delegation.js';
export { disconnectScenario } from './scenarios/disconnect.js';
export {
  concurrentEphemeralScenario,
  ephemeralCancelScenario,
  ephemeralEarlyItemsScenario,
  ephemeralIsolationScenario,
} from './scenarios/ephemeral.js';
export { repeatedCallScenario } from './scenarios/exactly-once.js';
export { capabilityFallbacksScenario } from './scenarios/fallbacks.js';
export { handoffScenario } from './scenarios/handoff.js';
export { realtimeScenarios } from './scenarios/index.js';
export {
  bargeInScenario,
  interruptBeforeAudioScenario,
  interruptMidMessageScenario,
  multiMessageScenario,
  truncationWithoutTranscriptScenario,
} from './scenarios/interruption.js';
export { lifecycleScenario } from './scenarios/lifecycle.js';
export { parallelToolsAfterEndScenario, parallelToolsBeforeEndScenario } from './scenarios/parallel-tools.js';
export { fatalProviderErrorScenario, providerCancelledToolScenario } from './scenarios/provider-cancels.js';
export { providerErrorScenario } from './scenarios/provider-error.js';
export {
  boundedFollowUpsScenario,
  coalescedInputsScenario,
  unnamedRefusalScenario,
} from './scenarios/response-queue.js';
export { responseRequestsScenario } from './scenarios/response-requests.js';
export { resumptionScenario } from './scenarios/resumption.js';
export { servicePlaybackScenario } from './scenarios/service-playback.js';
export { generateResponseScenario, textResponseScenario } from './scenarios/text-response.js';
export { toolCallScenario } from './scenarios/tool-call.js';
export { transcriptionCutScenario } from './scenarios/transcription-cut.js';
export {
  silentStopScenario,
  toolOutputWriteFailureScenario,
  writeFailureScenario,
} from './scenarios/transport-faults.js';
export { turnDoneScenario } from './scenarios/turn-done.js';
export { pushToTalkScenario, responseInstructionsScenario } from './scenarios/turn-taking.js';
export { userSpeechScenario } from './scenarios/user-speech.js';
export { SeamCommandLog } from './seam-command-log.js';
export { type ConformanceSuiteOptions, defineConformanceSuite } from './suite.js';
export {
  audioItemIds,
  audioMsOf,
  commandsOf,
  type Deferred,
  deferred,
  EventRecorder,
  type EventRecorderOptions,
  openSession,
  ScenarioTimeoutError,
  settlesWithin,
  WAIT_MS,
  withSession,
} from './support.js';
export type {
  TextHarnessOutput,
  TextHarnessRequest,
  TextHarnessResponse,
  TextModelHarness,
  TextModelHarnessFactory,
} from './text/harness.js';
export {
  formatTextReport,
  runTextConformance,
  runTextScenario,
  type TextConformanceOptions,
  type TextConformanceReport,
  type TextScenarioResult,
} from './text/run.js';
export type { TextConformanceScenario, TextModelCapability } from './text/scenario.js';
export {
  textAbortScenario,
  textAnswerScenario,
  textHistoryScenario,
  textModelScenarios,
  textParallelToolCallsScenario,
  textProviderErrorScenario,
  textStreamedTextScenario,
  textStreamedToolCallScenario,
  textStructuredOutputScenario,
  textToolRoundTripScenario,
} from './text/scenarios.js';
export { defineTextConformanceSuite, type TextConformanceSuiteOptions } from './text/suite.js';
