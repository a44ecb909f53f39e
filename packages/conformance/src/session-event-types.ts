import type { RealtimeSessionEventType } from '@parley/core';

// A key per event type, checked by the compiler both ways: a new event type fails the build until it is listed here.
const EVERY_TYPE = {
  connection_status: true,
  reconnecting: true,
  reconnected: true,
  agent_started: true,
  agent_done: true,
  handoff: true,
  response_started: true,
  response_done: true,
  turn_done: true,
  tool_started: true,
  tool_done: true,
  agent_tool_event: true,
  tool_approval_requested: true,
  hosted_tool_call: true,
  delegation_requested: true,
  delegation_started: true,
  delegation_approval_requested: true,
  delegation_done: true,
  context_appended: true,
  usage_updated: true,
  output_silence: true,
  dtmf: true,
  audio_started: true,
  audio: true,
  audio_done: true,
  audio_interrupted: true,
  transcript_delta: true,
  text_delta: true,
  history_added: true,
  history_updated: true,
  history_removed: true,
  guardrail_tripped: true,
  error: true,
  raw_event: true,
  warning: true,
} as const satisfies Record<RealtimeSessionEventType, true>;

/** The `type` of every event a `RealtimeSession` emits. */
export const SESSION_EVENT_TYPES = Object.keys(EVERY_TYPE) as RealtimeSessionEventType[];
