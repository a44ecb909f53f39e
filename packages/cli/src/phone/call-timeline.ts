import type { RealtimeSession, RealtimeSessionEvent } from '@parley/core';
import type { Output } from '../output.js';

/** The session events a phone call's summary is made of. */
export const CALL_EVENTS = [
  'tool_done',
  'audio_interrupted',
  'turn_done',
  'response_started',
  'dtmf',
  'connection_status',
  'error',
] as const;

/**
 * Prints the agent's side of a call as it happens (tool calls, the delegate's marked as such; each turn as the caller
 * heard it) and hands the summary's events to `record`.
 */
export function followCall(
  session: RealtimeSession,
  output: Output,
  record: (event: RealtimeSessionEvent) => void,
): void {
  for (const type of CALL_EVENTS) session.on(type, record);
  session.on('tool_started', (event) =>
    output.line(
      `${event.delegationId === undefined ? 'agent    ' : 'delegate '}  ⚙ ${event.name}(${event.arguments})`,
    ),
  );
  session.on('tool_done', (event) => output.line(`           ↳ ${event.output}`));
  session.on('turn_done', (event) => {
    if (event.transcript)
      output.line(
        `agent      🔊 "${event.transcript}" (${event.outcome === 'full' ? 'heard in full' : `${event.outcome}: as heard`})`,
      );
  });
}

/** The summary's parts both phone paths report alike. */
export function callSummaryParts(events: readonly RealtimeSessionEvent[]): {
  toolCalls: string[];
  turns: { outcome: string; transcript: string }[];
} {
  return {
    toolCalls: events.flatMap((e) => (e.type === 'tool_done' ? [e.name] : [])),
    turns: events.flatMap((e) =>
      e.type === 'turn_done' ? [{ outcome: e.outcome, transcript: e.transcript }] : [],
    ),
  };
}
