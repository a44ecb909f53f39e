export {
  Agent,
  type AgentInstructions,
  type AgentOptions,
  type AgentOutput,
  type AnyAgent,
  type AnyFunctionTool,
  type FunctionToolResult,
  type ToolsToFinalOutputFunction,
  type ToolsToFinalOutputResult,
  type ToolUseBehavior,
} from './agent.js';
export {
  AGENT_TOOL_PARAMETERS,
  type AgentTool,
  type AgentToolOptions,
} from './agent-tool.js';
export {
  type BackgroundResult,
  backgroundResult,
  isBackgroundResult,
} from './background-result.js';
export {
  type Clock,
  delay,
  systemClock,
  type TimerHandle,
} from './clock.js';
export { CANCELLED_TASK_GRACE_MS, MAX_ERROR_FOLLOW_UPS } from './constants.js';
export type { RunContext } from './context.js';
export {
  AbortError,
  ModelBehaviorError,
  ParleyError,
  ServiceUnreachableError,
  ToolGuardrailTripwireTriggered,
  ToolTimeoutError,
  UserError,
} from './errors.js';
export type {
  GuardrailFunctionOutput,
  InputGuardrail,
  InputGuardrailResult,
  OutputGuardrail,
  OutputGuardrailResult,
  ToolGuardrailDecision,
  ToolGuardrailResult,
  ToolInputGuardrail,
  ToolOutputGuardrail,
} from './guardrails.js';
export {
  defaultHandoffToolName,
  type Handoff,
  type HandoffInputData,
  type HandoffOptions,
  handoff,
  type OnHandoff,
  type OnHandoffInfo,
} from './handoff.js';
export {
  type CodeInterpreterHostedTool,
  type FileSearchHostedTool,
  HOSTED_TOOL_KINDS,
  type HostedMcpApprovalDecision,
  type HostedMcpApprovalFunction,
  type HostedMcpApprovalRequest,
  type HostedTool,
  type HostedToolBase,
  type HostedToolKind,
  type HostedToolOptions,
  type HostedToolProviderData,
  HostedToolUnsupportedError,
  hostedTool,
  type ImageGenerationHostedTool,
  type McpHostedTool,
  type WebSearchHostedTool,
} from './hosted-tool.js';
export {
  assistantMessage,
  type CodeInterpreterOutput,
  type ConversationItem,
  type FileSearchResult,
  type FunctionCallItem,
  type FunctionCallOutputItem,
  HOSTED_TOOL_CALL_STATUSES,
  type HostedToolApprovalRequestItem,
  type HostedToolApprovalResponseItem,
  type HostedToolCallBase,
  type HostedToolCallItem,
  type HostedToolCallStatus,
  type HostedToolItem,
  isHostedToolItem,
  type McpHostedAction,
  type MessageItem,
  userMessage,
  type WebSearchAction,
} from './items.js';
export {
  configureLogging,
  type LogFields,
  type LoggingOptions,
  type LogLevel,
  type LogSink,
} from './logger.js';
export { type AddItemsOptions, MemorySession, type Session } from './memory/session.js';
export {
  type JsonSchema,
  MODEL_SPECIFICATION_VERSION,
  type Model,
  type ModelCapabilities,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type ModelSettings,
  type ModelStreamEvent,
  type ToolChoice,
  type ToolDefinition,
} from './model.js';
export { UnknownOptionError } from './option-keys.js';
export {
  audioBytesPerMs,
  PCM16_BYTES_PER_MS,
  PCM16_SAMPLE_RATE,
  pcm16DurationMs,
  type RealtimeAudioFormat,
} from './realtime/audio.js';
export { AudioConverter } from './realtime/audio-formats/audio-converter.js';
export {
  audioStreamBytesPerMs,
  audioStreamSampleRate,
} from './realtime/audio-formats/audio-stream-format.js';
export { decodeG711, encodeG711, type G711Law } from './realtime/audio-formats/g711.js';
export { Resampler } from './realtime/audio-formats/resampler.js';
export { isDtmfDigit } from './realtime/dtmf.js';
export type { AnyRealtimeModel } from './realtime/model-version.js';
export {
  type PlaybackTracker,
  RealtimePlaybackTracker,
  ReportedPlaybackTracker,
} from './realtime/playback/playback-tracker.js';
export type {
  AppendContextCommand,
  ContextAppendKind,
  CreateResponseCommand,
  DtmfDigit,
  RealtimeAudioStreamFormat,
  RealtimeCapabilities,
  RealtimeCapability,
  RealtimeCommand,
  RealtimeConnection,
  RealtimeConnectOptions,
  RealtimeContentPart,
  RealtimeEvent,
  RealtimeEventType,
  RealtimeHostedTool,
  RealtimeItem,
  RealtimeItemInput,
  RealtimeModel,
  RealtimeResponseEndReason,
  RealtimeResponseStatus,
  RealtimeSessionConfig,
  RealtimeToolDefinition,
  RealtimeUsage,
  TurnDetectionConfig,
} from './realtime/seam.js';
export { declaresCapability, REALTIME_SPECIFICATION_VERSION } from './realtime/seam.js';
export type { RealtimeReconnectOptions } from './realtime/session/connection/reconnect-options.js';
export type { BlockedRequest } from './realtime/session/errors.js';
export {
  CapabilityNotSupportedError,
  ConnectionClosedError,
  ConnectionCloseError,
  ConnectionLostError,
  EphemeralResponseInFlightError,
  FollowUpLimitError,
  RealtimeConnectError,
  ReconnectFailedError,
  ResponseRefusedError,
  ResponseTimeoutError,
  SessionClosedError,
  SessionNotConnectedError,
  StaleResponseError,
  ToolCallCancelledError,
  ToolCallConflictError,
  ToolOutputNotSentError,
  TurnLostError,
  UnknownToolError,
} from './realtime/session/errors.js';
export type {
  RealtimeErrorSource,
  RealtimeMessageOutcome,
  RealtimeReconnectReason,
  RealtimeSessionEvent,
  RealtimeSessionEventOf,
  RealtimeSessionEventType,
  RealtimeSessionStatus,
  RealtimeToolCallStatus,
  RealtimeTurnMessage,
} from './realtime/session/events/events.js';
export type {
  RealtimeFunctionCallHistoryItem,
  RealtimeHistoryItem,
  RealtimeMessageHistoryItem,
} from './realtime/session/history/history-item.js';
export type { RealtimeSessionOptions, RealtimeSessionSettings } from './realtime/session/options.js';
export type { SessionPlayback } from './realtime/session/playback/playback-control.js';
export type { GenerateResponseOptions } from './realtime/session/responses/response-generation.js';
export type { ResponseHandle, ResponseResult } from './realtime/session/responses/response-handle.js';
export { RealtimeSession, type SessionAudioFormats } from './realtime/session/session.js';
export type { PendingApproval } from './realtime/session/tools/approvals.js';
// The versioned specification's names, as its own indexes list them.
export * from './realtime/spec/v1/index.js';
export * from './realtime/spec/v2/index.js';
export {
  GuardrailExecutionError,
  InputGuardrailTripwireTriggered,
  MaxTurnsExceededError,
  OutputGuardrailTripwireTriggered,
} from './runner/errors.js';
export { type RunHookEventName, type RunHookEvents, type RunHookListener, RunHooks } from './runner/hooks.js';
export type {
  RunSettings,
  ToolErrorFormatter,
  ToolErrorFormatterArgs,
  ToolErrorKind,
  UnknownToolBehavior,
} from './runner/run-config.js';
export type {
  HandoffCallItem,
  HandoffOutputItem,
  HostedToolRunItem,
  MessageOutputItem,
  RunItem,
  ToolApprovalItem,
  ToolCallItem,
  ToolCallOutputItem,
} from './runner/run-items.js';
export { type RunFinalOutput, RunResult, RunResultBase } from './runner/run-result.js';
export { RunState } from './runner/run-state.js';
export type { ApprovalDecision, RunStatus } from './runner/run-state-data.js';
export {
  type GuardrailOutputJson,
  RUN_STATE_SCHEMA_VERSION,
  type RunItemJson,
  type RunStateJson,
  type ToolGuardrailResultJson,
} from './runner/run-state-json.js';
export {
  DEFAULT_MAX_TURNS,
  type RunInput,
  Runner,
  type RunnerConfig,
  type RunOptions,
  type RunStreamOptions,
  type RunWaitOptions,
  run,
} from './runner/runner.js';
export type {
  AgentToolStreamEvent,
  AgentUpdatedStreamEvent,
  RawModelStreamEvent,
  RunItemStreamEvent,
  RunItemStreamEventName,
  RunStreamEvent,
} from './runner/stream-events.js';
export { type CancelMode, StreamedRunResult } from './runner/streamed-run-result.js';
export {
  defaultToolErrorFunction,
  type FunctionTool,
  type ToolApprovalCall,
  type ToolCallInfo,
  type ToolErrorFunction,
  type ToolExecuteContext,
  type ToolInvocationResult,
  type ToolOptions,
  type ToolTimeoutBehavior,
  tool,
} from './tool.js';
export type { ToolSource } from './tool-source.js';
export {
  configureTracing,
  type OpenTelemetryApi,
  type OpenTelemetrySpan,
  type OpenTelemetryTracer,
  type OpenTelemetryTracerProvider,
  type TraceAttributes,
  type TracingOptions,
} from './tracing.js';
export type { Usage } from './usage.js';
