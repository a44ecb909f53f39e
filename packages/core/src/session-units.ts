/**
 * Package-private: the units of a realtime session and the tunables, for @parley/core's own unit tests
 * (`import … from '#session-units'`, a subpath import of this package's `imports` map, which no other package can
 * resolve). Not public API; nothing here is semver-stable.
 */
export {
  INTERRUPTION_SNAPSHOTS_LIMIT,
  MESSAGE_ORDER_RESPONSES_LIMIT,
  PLAYBACK_ENTRIES_LIMIT,
  RECENTLY_ENDED_RESPONSES_LIMIT,
  TRACKED_RESPONSES_LIMIT,
} from './constants.js';
export { AgentSwitcher, type AgentSwitchPort } from './realtime/session/agents/agent-switch.js';
export {
  agentSwitchStrategy,
  commitRespondsByDefault,
  delegationStrategy,
  ephemeralResponseStrategy,
  historyReplayStrategy,
  inputTranscriptionStrategy,
  messageCorrectionStrategy,
  outputModalitiesStrategy,
  requireContextAppends,
  requireResponseRequests,
  toolFollowUpStrategy,
  turnDetectionStrategy,
} from './realtime/session/capability-strategies.js';
export { ResponseEvents, type ResponseEventsPort } from './realtime/session/events/response-events.js';
export { resolveSessionOptions } from './realtime/session/options.js';
export { ContentDelivery, type ContentDeliveryPort } from './realtime/session/playback/content-delivery.js';
export { MessageOrder } from './realtime/session/playback/message-order.js';
export { assembleSession, type SessionParts } from './realtime/session/session-assembly.js';
export { ParallelToolCalls } from './realtime/session/tools/parallel-tool-calls.js';
export { ToolExecutor, type ToolExecutorPort } from './realtime/session/tools/tool-executor.js';
