import {
  REALTIME_CAPABILITY_DEFAULTS_V2,
  type RealtimeAppendContextCommandV2,
  type RealtimeAudioStreamFormatV2,
  type RealtimeCapabilitiesV2,
  type RealtimeCapabilityV2,
  type RealtimeCommandV2,
  type RealtimeConnectionV2,
  type RealtimeConnectOptionsV2,
  type RealtimeContentPartV2,
  type RealtimeContextAppendKindV2,
  type RealtimeCreateResponseCommandV2,
  type RealtimeDtmfDigitV2,
  type RealtimeEventV2,
  type RealtimeHostedToolV2,
  type RealtimeItemInputV2,
  type RealtimeItemV2,
  type RealtimeModelV2,
  type RealtimeResponseEndReasonV2,
  type RealtimeResponseStatusV2,
  type RealtimeSessionConfigV2,
  type RealtimeToolDefinitionV2,
  type RealtimeTurnDetectionV2,
  type RealtimeUsageV2,
} from './spec/v2/index.js';

/*
 * The realtime model seam as this release of @parley/core speaks it: the unversioned names are the current
 * specification version (`spec/v2`). Adapters may implement the versioned names; the session uses these, and
 * takes a version 1 model too (see `model-version.ts`).
 */

export { REALTIME_SPECIFICATION_VERSION_V2 as REALTIME_SPECIFICATION_VERSION } from './spec/v2/index.js';

/**
 * Whether `capabilities` declare `capability`, reading an optional flag the provider does not name as its documented
 * default (`contentAcknowledgements`: `true`; every other one `false`). Read flags through it, never directly.
 */
export function declaresCapability(
  capabilities: RealtimeCapabilities,
  capability: RealtimeCapability,
): boolean {
  return capabilities[capability] ?? REALTIME_CAPABILITY_DEFAULTS_V2[capability] ?? false;
}
export type RealtimeModel = RealtimeModelV2;
export type RealtimeCapabilities = RealtimeCapabilitiesV2;
export type RealtimeCapability = RealtimeCapabilityV2;
export type RealtimeConnection = RealtimeConnectionV2;
export type RealtimeConnectOptions = RealtimeConnectOptionsV2;
export type RealtimeCommand = RealtimeCommandV2;
export type CreateResponseCommand = RealtimeCreateResponseCommandV2;
export type AppendContextCommand = RealtimeAppendContextCommandV2;
export type DtmfDigit = RealtimeDtmfDigitV2;
export type ContextAppendKind = RealtimeContextAppendKindV2;
export type RealtimeEvent = RealtimeEventV2;
export type RealtimeEventType = RealtimeEventV2['type'];
export type RealtimeItem = RealtimeItemV2;
export type RealtimeItemInput = RealtimeItemInputV2;
export type RealtimeContentPart = RealtimeContentPartV2;
export type RealtimeSessionConfig = RealtimeSessionConfigV2;
export type RealtimeAudioStreamFormat = RealtimeAudioStreamFormatV2;
export type RealtimeToolDefinition = RealtimeToolDefinitionV2;
export type RealtimeHostedTool = RealtimeHostedToolV2;
export type TurnDetectionConfig = RealtimeTurnDetectionV2;
export type RealtimeResponseStatus = RealtimeResponseStatusV2;
export type RealtimeResponseEndReason = RealtimeResponseEndReasonV2;
export type RealtimeUsage = RealtimeUsageV2;
