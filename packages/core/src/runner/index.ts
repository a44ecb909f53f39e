export {
  GuardrailExecutionError,
  InputGuardrailTripwireTriggered,
  MaxTurnsExceededError,
  OutputGuardrailTripwireTriggered,
} from './errors.js';
export type { RunHookEventName, RunHookEvents, RunHookListener } from './hooks.js';
export { RunHooks } from './hooks.js';
export type {
  RunSettings,
  ToolErrorFormatter,
  ToolErrorFormatterArgs,
  ToolErrorKind,
  UnknownToolBehavior,
} from './run-config.js';
export type {
  HandoffCallItem,
  HandoffOutputItem,
  MessageOutputItem,
  RunItem,
  ToolApprovalItem,
  ToolCallItem,
  ToolCallOutputItem,
} from './run-items.js';
export { type RunFinalOutput, RunResult, RunResultBase } from './run-result.js';
export { RunState } from './run-state.js';
export type { ApprovalDecision, RunStatus } from './run-state-data.js';
export {
  RUN_STATE_SCHEMA_VERSION,
  type RunItemJson,
  type RunStateJson,
  type ToolGuardrailResultJson,
} from './run-state-json.js';
export {
  DEFAULT_MAX_TURNS,
  type RunInput,
  Runner,
  type RunnerConfig,
  type RunOptions,
  run,
} from './runner.js';
export { MemorySession, type Session } from './session.js';
export type {
  AgentUpdatedStreamEvent,
  RawModelStreamEvent,
  RunItemStreamEvent,
  RunItemStreamEventName,
  RunStreamEvent,
} from './stream-events.js';
export { type CancelMode, StreamedRunResult } from './streamed-run-result.js';
