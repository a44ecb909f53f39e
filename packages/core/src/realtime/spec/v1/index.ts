export type { RealtimeAppendContextCommandV1 } from './realtime-append-context-command-v1.js';
export type { RealtimeAudioFormatV1 } from './realtime-audio-format-v1.js';
export type { RealtimeAudioStreamFormatV1 } from './realtime-audio-stream-format-v1.js';
export {
  REALTIME_CAPABILITY_DEFAULTS_V1,
  type RealtimeCapabilitiesV1,
  type RealtimeCapabilityV1,
} from './realtime-capabilities-v1.js';
export type { RealtimeCommandV1 } from './realtime-command-v1.js';
export type { RealtimeConnectOptionsV1 } from './realtime-connect-options-v1.js';
export type { RealtimeConnectionV1 } from './realtime-connection-v1.js';
export type { RealtimeContentPartV1 } from './realtime-content-part-v1.js';
export type { RealtimeContextAppendKindV1 } from './realtime-context-append-kind-v1.js';
export type { RealtimeContextAppendedEventV1 } from './realtime-context-appended-event-v1.js';
export type { RealtimeCreateResponseCommandV1 } from './realtime-create-response-command-v1.js';
export type { RealtimeDelegationRequestedEventV1 } from './realtime-delegation-requested-event-v1.js';
export type { RealtimeEventV1 } from './realtime-event-v1.js';
export type { RealtimeFunctionCallCancelledEventV1 } from './realtime-function-call-cancelled-event-v1.js';
export type { RealtimeItemInputV1 } from './realtime-item-input-v1.js';
export type { RealtimeItemV1 } from './realtime-item-v1.js';
export type { RealtimeJsonSchemaV1 } from './realtime-json-schema-v1.js';
export { REALTIME_SPECIFICATION_VERSION_V1, type RealtimeModelV1 } from './realtime-model-v1.js';
export type { RealtimeOutputSilenceEventV1 } from './realtime-output-silence-event-v1.js';
export type { RealtimeResponseEndReasonV1 } from './realtime-response-end-reason-v1.js';
export type { RealtimeResponseStatusV1 } from './realtime-response-status-v1.js';
export type { RealtimeResumeTokenEventV1 } from './realtime-resume-token-event-v1.js';
export type { RealtimeSessionConfigV1 } from './realtime-session-config-v1.js';
export type { RealtimeSessionExpiredEventV1 } from './realtime-session-expired-event-v1.js';
export type { RealtimeSessionExpiringEventV1 } from './realtime-session-expiring-event-v1.js';
export type { RealtimeToolChoiceV1 } from './realtime-tool-choice-v1.js';
export type { RealtimeToolDefinitionV1 } from './realtime-tool-definition-v1.js';
export type { RealtimeTurnDetectionV1 } from './realtime-turn-detection-v1.js';
export type { RealtimeUsageUpdatedEventV1 } from './realtime-usage-updated-event-v1.js';
export type { RealtimeUsageV1 } from './realtime-usage-v1.js';
