import type {
  RealtimeAppendContextCommandV1,
  RealtimeCapabilitiesV1,
  RealtimeCapabilityV1,
  RealtimeCommandV1,
  RealtimeConnectionV1,
  RealtimeConnectOptionsV1,
  RealtimeContentPartV1,
  RealtimeContextAppendKindV1,
  RealtimeCreateResponseCommandV1,
  RealtimeEventV1,
  RealtimeItemInputV1,
  RealtimeItemV1,
  RealtimeModelV1,
  RealtimeResponseEndReasonV1,
  RealtimeResponseStatusV1,
  RealtimeSessionConfigV1,
  RealtimeToolDefinitionV1,
  RealtimeTurnDetectionV1,
  RealtimeUsageV1,
} from './spec/v1/index.js';

/*
 * The realtime model seam as this release of @parley/core speaks it: the unversioned names are the current
 * specification version (`spec/v1`). Adapters may implement the versioned names; the session uses these.
 */

export { REALTIME_SPECIFICATION_VERSION } from './spec/v1/index.js';
export type RealtimeModel = RealtimeModelV1;
export type RealtimeCapabilities = RealtimeCapabilitiesV1;
export type RealtimeCapability = RealtimeCapabilityV1;
export type RealtimeConnection = RealtimeConnectionV1;
export type RealtimeConnectOptions = RealtimeConnectOptionsV1;
export type RealtimeCommand = RealtimeCommandV1;
export type CreateResponseCommand = RealtimeCreateResponseCommandV1;
export type AppendContextCommand = RealtimeAppendContextCommandV1;
export type ContextAppendKind = RealtimeContextAppendKindV1;
export type RealtimeEvent = RealtimeEventV1;
export type RealtimeEventType = RealtimeEventV1['type'];
export type RealtimeItem = RealtimeItemV1;
export type RealtimeItemInput = RealtimeItemInputV1;
export type RealtimeContentPart = RealtimeContentPartV1;
export type RealtimeSessionConfig = RealtimeSessionConfigV1;
export type RealtimeToolDefinition = RealtimeToolDefinitionV1;
export type TurnDetectionConfig = RealtimeTurnDetectionV1;
export type RealtimeResponseStatus = RealtimeResponseStatusV1;
export type RealtimeResponseEndReason = RealtimeResponseEndReasonV1;
export type RealtimeUsage = RealtimeUsageV1;
