import type { ConformanceScenario } from '../scenario.js';
import { approvalScenario } from './approval.js';
import { audioResponseScenario } from './audio-response.js';
import { backgroundResultScenario } from './background-result.js';
import {
  callbackSignalScenario,
  closeRetryScenario,
  iterationEndScenario,
  staleResponseScenario,
} from './bounded-waits.js';
import { cutInputScenario } from './cut-inputs.js';
import { delegationScenario } from './delegation.js';
import { disconnectScenario } from './disconnect.js';
import {
  concurrentEphemeralScenario,
  ephemeralCancelScenario,
  ephemeralEarlyItemsScenario,
  ephemeralIsolationScenario,
} from './ephemeral.js';
import { repeatedCallScenario } from './exactly-once.js';
import { capabilityFallbacksScenario } from './fallbacks.js';
import { handoffScenario } from './handoff.js';
import {
  bargeInScenario,
  interruptBeforeAudioScenario,
  interruptMidMessageScenario,
  multiMessageScenario,
  truncationWithoutTranscriptScenario,
} from './interruption.js';
import { lifecycleScenario } from './lifecycle.js';
import { parallelToolsAfterEndScenario, parallelToolsBeforeEndScenario } from './parallel-tools.js';
import { fatalProviderErrorScenario, providerCancelledToolScenario } from './provider-cancels.js';
import { providerErrorScenario } from './provider-error.js';
import {
  boundedFollowUpsScenario,
  coalescedInputsScenario,
  unnamedRefusalScenario,
} from './response-queue.js';
import { responseRequestsScenario } from './response-requests.js';
import { resumptionScenario } from './resumption.js';
import { servicePlaybackScenario } from './service-playback.js';
import { generateResponseScenario, textResponseScenario } from './text-response.js';
import { toolCallScenario } from './tool-call.js';
import { transcriptionCutScenario } from './transcription-cut.js';
import {
  silentStopScenario,
  toolOutputWriteFailureScenario,
  writeFailureScenario,
} from './transport-faults.js';
import { turnDoneScenario } from './turn-done.js';
import { pushToTalkScenario, responseInstructionsScenario } from './turn-taking.js';
import { userSpeechScenario } from './user-speech.js';

/** Every realtime scenario, in the order the suite runs them. */
export const realtimeScenarios: readonly ConformanceScenario[] = [
  lifecycleScenario,
  closeRetryScenario,
  iterationEndScenario,
  textResponseScenario,
  generateResponseScenario,
  responseRequestsScenario,
  responseInstructionsScenario,
  pushToTalkScenario,
  audioResponseScenario,
  toolCallScenario,
  parallelToolsAfterEndScenario,
  parallelToolsBeforeEndScenario,
  repeatedCallScenario,
  providerCancelledToolScenario,
  backgroundResultScenario,
  boundedFollowUpsScenario,
  approvalScenario,
  handoffScenario,
  providerErrorScenario,
  fatalProviderErrorScenario,
  unnamedRefusalScenario,
  coalescedInputsScenario,
  staleResponseScenario,
  callbackSignalScenario,
  disconnectScenario,
  cutInputScenario,
  resumptionScenario,
  silentStopScenario,
  writeFailureScenario,
  toolOutputWriteFailureScenario,
  transcriptionCutScenario,
  userSpeechScenario,
  interruptMidMessageScenario,
  servicePlaybackScenario,
  interruptBeforeAudioScenario,
  bargeInScenario,
  multiMessageScenario,
  truncationWithoutTranscriptScenario,
  turnDoneScenario,
  ephemeralIsolationScenario,
  concurrentEphemeralScenario,
  ephemeralCancelScenario,
  ephemeralEarlyItemsScenario,
  capabilityFallbacksScenario,
  delegationScenario,
];

export {
  approvalScenario,
  audioResponseScenario,
  backgroundResultScenario,
  bargeInScenario,
  boundedFollowUpsScenario,
  callbackSignalScenario,
  capabilityFallbacksScenario,
  closeRetryScenario,
  coalescedInputsScenario,
  concurrentEphemeralScenario,
  delegationScenario,
  disconnectScenario,
  ephemeralCancelScenario,
  ephemeralIsolationScenario,
  fatalProviderErrorScenario,
  generateResponseScenario,
  handoffScenario,
  interruptBeforeAudioScenario,
  interruptMidMessageScenario,
  iterationEndScenario,
  lifecycleScenario,
  multiMessageScenario,
  parallelToolsAfterEndScenario,
  parallelToolsBeforeEndScenario,
  providerCancelledToolScenario,
  providerErrorScenario,
  pushToTalkScenario,
  repeatedCallScenario,
  responseInstructionsScenario,
  responseRequestsScenario,
  resumptionScenario,
  silentStopScenario,
  staleResponseScenario,
  textResponseScenario,
  toolCallScenario,
  toolOutputWriteFailureScenario,
  truncationWithoutTranscriptScenario,
  turnDoneScenario,
  unnamedRefusalScenario,
  userSpeechScenario,
  writeFailureScenario,
};
