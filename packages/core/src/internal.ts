/**
 * `@parley/core/internal`: the helpers Parley's own packages (adapters, the mock, the conformance suite) and
 * tests build on. Unstable: any release may change or remove them; apps should not import this entry.
 */
export { abortable } from './abortable.js';
export { type AnyClass, brand } from './brand.js';
export {
  isClock,
  type LongTimeout,
  MAX_TIMER_DELAY_MS,
  resolveClockOption,
  setLongTimeout,
} from './clock.js';
export { createRunContext } from './context.js';
export { errorText, log } from './logger.js';
export type { NestedRunPort } from './nested-run.js';
export { type OptionKeyList, type OptionKeys, optionKeys } from './option-keys.js';
export { invalidOption, positiveMs } from './option-values.js';
export { type AssistantMessageEnd, endAssistantMessage } from './realtime/assistant-message-end.js';
export { sameStreamFormat, streamFormatOf } from './realtime/audio-formats/audio-stream-format.js';
export { ForwardingConnection } from './realtime/forwarding-connection.js';
export type { ScriptedOutput } from './realtime/scripted-output.js';
export {
  type FollowUpReason,
  type PendingResponseRequest,
  ResponseCoordinator,
  type ResponseCoordinatorHooks,
  type ResponseCoordinatorOptions,
  type ResponseRequestParams,
  type ResponseRequestReason,
  type ResponseStartInfo,
} from './realtime/session/responses/response-coordinator.js';
export { RecentIds } from './recent-ids.js';
export {
  defaultToolErrorFunction,
  type InvokeToolOptions,
  invokeFunctionTool,
  type ParsedToolArguments,
  parseToolArguments,
  toolDefinition,
  toolOutputToString,
} from './tool.js';
export type { TraceSpan } from './tracing.js';
export { addUsage, emptyUsage } from './usage.js';
