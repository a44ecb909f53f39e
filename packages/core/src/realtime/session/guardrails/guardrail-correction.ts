import type { Interruptions } from '../playback/interruption.js';
import type { ResponseCoordinator } from '../responses/response-coordinator.js';
import type { SessionState } from '../session-state.js';
import type { GuardrailTrip } from './output-guardrail-monitor.js';

const CORRECTION = (name: string) =>
  `Your previous response was stopped by the "${name}" output guardrail. Do not repeat it; answer in a way that respects the guardrail.`;

/**
 * What a tripped output guardrail does to the conversation: `guardrail_tripped` is emitted, the response is
 * interrupted (as any interruption), and, if it is still running, a system message tells the model why and a
 * new response is requested
 * (an automatic follow-up that answers an error: bounded in a row by the coordinator).
 */
export function correctTrippedResponse<TContext>(
  state: SessionState<TContext>,
  interruptions: Interruptions<TContext>,
  coordinator: ResponseCoordinator,
  trip: GuardrailTrip<TContext>,
): void {
  if (state.status !== 'connected') return;
  state.emit({
    type: 'guardrail_tripped',
    responseId: trip.responseId,
    agent: trip.agent,
    guardrailName: trip.guardrailName,
    outputInfo: trip.outputInfo,
    guardrails: trip.tripped,
    text: trip.text,
  });
  try {
    // A response that already finished gets no correction: the conversation has moved on (or is about to).
    const stillRunning = coordinator.activeResponseId === trip.responseId;
    // Guardrails watch conversation (not ephemeral) responses only (see response_started), so a correction always fits.
    interruptions.interrupt('guardrail', trip.responseId);
    if (!stillRunning) return;
    state.send({
      type: 'createItem',
      item: {
        type: 'message',
        role: 'system',
        content: [{ type: 'text', text: CORRECTION(trip.guardrailName) }],
      },
    });
    coordinator.followUp('guardrail', true);
  } catch (error) {
    state.reportError('guardrail', error);
  }
}
