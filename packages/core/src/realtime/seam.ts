import {
  REALTIME_CAPABILITY_DEFAULTS_V1,
  type RealtimeAppendContextCommandV1,
  type RealtimeAudioStreamFormatV1,
  type RealtimeCapabilitiesV1,
  type RealtimeCapabilityV1,
  type RealtimeCommandV1,
  type RealtimeConnectionV1,
  type RealtimeConnectOptionsV1,
  type RealtimeContentPartV1,
  type RealtimeContextAppendKindV1,
  type RealtimeCreateResponseCommandV1,
  type RealtimeDtmfDigitV1,
  type RealtimeEventV1,
  type RealtimeItemInputV1,
  type RealtimeItemV1,
  type RealtimeModelV1,
  type RealtimeResponseEndReasonV1,
  type RealtimeResponseStatusV1,
  type RealtimeSessionConfigV1,
  type RealtimeToolDefinitionV1,
  type RealtimeTurnDetectionV1,
  type RealtimeUsageV1,
} from './spec/v1/index.js';

/*
 * The realtime model seam as this release of @parley/core speaks it: the unversioned names are the current
 * specification version (`spec/v1`). Adapters may implement the versioned names; the session uses these.
 */

export { REALTIME_SPECIFICATION_VERSION } from './spec/v1/index.js';

/**
 * Whether `capabilities` declare `capability`, reading an optional flag the provider does not name as its documented
 * default (`contentAcknowledgements`: `true`; every other one `false`). Read flags through it, never directly.
 */
export function declaresCapability(
  capabilities: RealtimeCapabilities,
  capability: RealtimeCapability,
): boolean {
  return capabilities[capability] ?? REALTIME_CAPABILITY_DEFAULTS_V1[capability] ?? false;
}
export type RealtimeModel = RealtimeModelV1;
export type RealtimeCapabilities = RealtimeCapabilitiesV1;
export type RealtimeCapability = RealtimeCapabilityV1;
export type RealtimeConnection = RealtimeConnectionV1;
export type RealtimeConnectOptions = RealtimeConnectOptionsV1;
export type RealtimeCommand = RealtimeCommandV1;
export type CreateResponseCommand = RealtimeCreateResponseCommandV1;
export type AppendContextCommand = RealtimeAppendContextCommandV1;
export type DtmfDigit = RealtimeDtmfDigitV1;
export type ContextAppendKind = RealtimeContextAppendKindV1;
export type RealtimeEvent = RealtimeEventV1;
export type RealtimeEventType = RealtimeEventV1['type'];
export type RealtimeItem = RealtimeItemV1;
export type RealtimeItemInput = RealtimeItemInputV1;
export type RealtimeContentPart = RealtimeContentPartV1;
export type RealtimeSessionConfig = RealtimeSessionConfigV1;
export type RealtimeAudioStreamFormat = RealtimeAudioStreamFormatV1;
export type RealtimeToolDefinition = RealtimeToolDefinitionV1;
export type TurnDetectionConfig = RealtimeTurnDetectionV1;
export type RealtimeResponseStatus = RealtimeResponseStatusV1;
export type RealtimeResponseEndReason = RealtimeResponseEndReasonV1;
export type RealtimeUsage = RealtimeUsageV1;
