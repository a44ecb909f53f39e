/*
 * Version 2 of the realtime model specification: version 1 with three names made neutral (`ephemeral` for
 * `conversation: 'default' | 'none'`, `heardMs` for `truncateItem.audioEndMs`, `user_turn` for the end reason
 * `turn_detected`). The types that did not change are version 1's under their version 2 names. Hosted tools (a remote MCP
 * server the provider calls) were added since, all optional for a provider: the `hostedTools` capability and
 * configuration field, the `hosted_tool_call` and `hosted_tool_approval_requested` events, and the
 * `sendHostedToolApproval` command.
 */
export type { RealtimeAppendContextCommandV1 as RealtimeAppendContextCommandV2 } from '../v1/realtime-append-context-command-v1.js';
export type { RealtimeAudioFormatV1 as RealtimeAudioFormatV2 } from '../v1/realtime-audio-format-v1.js';
export type { RealtimeAudioStreamFormatV1 as RealtimeAudioStreamFormatV2 } from '../v1/realtime-audio-stream-format-v1.js';
export { REALTIME_CAPABILITY_DEFAULTS_V1 as REALTIME_CAPABILITY_DEFAULTS_V2 } from '../v1/realtime-capabilities-v1.js';
export type { RealtimeContentPartV1 as RealtimeContentPartV2 } from '../v1/realtime-content-part-v1.js';
export type { RealtimeContextAppendKindV1 as RealtimeContextAppendKindV2 } from '../v1/realtime-context-append-kind-v1.js';
export type { RealtimeContextAppendedEventV1 as RealtimeContextAppendedEventV2 } from '../v1/realtime-context-appended-event-v1.js';
export type { RealtimeDelegationRequestedEventV1 as RealtimeDelegationRequestedEventV2 } from '../v1/realtime-delegation-requested-event-v1.js';
export type { RealtimeFunctionCallCancelledEventV1 as RealtimeFunctionCallCancelledEventV2 } from '../v1/realtime-function-call-cancelled-event-v1.js';
export type { RealtimeItemInputV1 as RealtimeItemInputV2 } from '../v1/realtime-item-input-v1.js';
export type { RealtimeItemV1 as RealtimeItemV2 } from '../v1/realtime-item-v1.js';
export type { RealtimeJsonSchemaV1 as RealtimeJsonSchemaV2 } from '../v1/realtime-json-schema-v1.js';
export type { RealtimeOutputSilenceEventV1 as RealtimeOutputSilenceEventV2 } from '../v1/realtime-output-silence-event-v1.js';
export type { RealtimeResponseStatusV1 as RealtimeResponseStatusV2 } from '../v1/realtime-response-status-v1.js';
export type { RealtimeResumeTokenEventV1 as RealtimeResumeTokenEventV2 } from '../v1/realtime-resume-token-event-v1.js';
export type { RealtimeSessionExpiredEventV1 as RealtimeSessionExpiredEventV2 } from '../v1/realtime-session-expired-event-v1.js';
export type { RealtimeSessionExpiringEventV1 as RealtimeSessionExpiringEventV2 } from '../v1/realtime-session-expiring-event-v1.js';
export type { RealtimeToolChoiceV1 as RealtimeToolChoiceV2 } from '../v1/realtime-tool-choice-v1.js';
export type { RealtimeToolDefinitionV1 as RealtimeToolDefinitionV2 } from '../v1/realtime-tool-definition-v1.js';
export type { RealtimeTurnDetectionV1 as RealtimeTurnDetectionV2 } from '../v1/realtime-turn-detection-v1.js';
export type { RealtimeUsageUpdatedEventV1 as RealtimeUsageUpdatedEventV2 } from '../v1/realtime-usage-updated-event-v1.js';
export type { RealtimeUsageV1 as RealtimeUsageV2 } from '../v1/realtime-usage-v1.js';
export type { RealtimeCapabilitiesV2, RealtimeCapabilityV2 } from './realtime-capabilities-v2.js';
export type { RealtimeCommandV2 } from './realtime-command-v2.js';
export type { RealtimeConnectOptionsV2 } from './realtime-connect-options-v2.js';
export type { RealtimeConnectionV2 } from './realtime-connection-v2.js';
export type { RealtimeCreateResponseCommandV2 } from './realtime-create-response-command-v2.js';
export type {
  RealtimeDtmfDigitV2,
  RealtimeDtmfReceivedEventV2,
  RealtimeSendDtmfCommandV2,
} from './realtime-dtmf-v2.js';
export type { RealtimeErrorEventV2 } from './realtime-error-event-v2.js';
export type { RealtimeEventV2 } from './realtime-event-v2.js';
export type {
  RealtimeHostedMcpActionV2,
  RealtimeHostedMcpToolV2,
  RealtimeHostedToolApprovalRequestedEventV2,
  RealtimeHostedToolCallEventV2,
  RealtimeHostedToolKindV2,
  RealtimeHostedToolV2,
  RealtimeSendHostedToolApprovalCommandV2,
} from './realtime-hosted-tools-v2.js';
export { REALTIME_SPECIFICATION_VERSION_V2, type RealtimeModelV2 } from './realtime-model-v2.js';
export type { RealtimeResponseDoneEventV2 } from './realtime-response-done-event-v2.js';
export type { RealtimeResponseEndReasonV2 } from './realtime-response-end-reason-v2.js';
export type { RealtimeResponseStartedEventV2 } from './realtime-response-started-event-v2.js';
export type { RealtimeSessionConfigV2 } from './realtime-session-config-v2.js';
export type { RealtimeTruncateItemCommandV2 } from './realtime-truncate-item-command-v2.js';
