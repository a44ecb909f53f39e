/**
 * What the simulated voice model does when the user finishes an utterance. GPT-Live decides by itself when to speak
 * and when to delegate; a test scripts those decisions with a brain.
 */

/** A user utterance as the simulated model heard it, on the session timeline. */
export interface LiveUtterance {
  text: string;
  startMs: number;
  endMs: number;
}

/** A function call the simulated Responses backend makes. */
export interface LiveScriptedCall {
  name: string;
  /** JSON arguments (an object is serialized). */
  arguments: Record<string, unknown> | string;
}

/** A tool output the client sent back for a backend call. */
export interface LiveToolOutput {
  callId: string;
  name: string;
  output: string;
}

/** One decision of the voice model. */
export type LiveReaction =
  /** Say something. */
  | { type: 'speak'; text: string }
  /**
   * Delegate. Under client delegation the app gets `session.delegation.created` (no task text). Under Responses
   * delegation the hosted backend makes `calls` (function calls the client must answer) and hosted items, then
   * answers with `answer(outputs)` (default: the outputs joined), which the voice speaks.
   */
  | {
      type: 'delegate';
      calls?: readonly LiveScriptedCall[];
      hosted?: readonly ('web_search_call' | 'reasoning')[];
      answer?: (outputs: readonly LiveToolOutput[]) => string;
    }
  /** Keep listening. */
  | { type: 'listen' };

/** Decides what the voice model does after an utterance; a string is shorthand for `speak`. */
export type LiveBrain = (utterance: LiveUtterance) => LiveReaction | string | readonly LiveReaction[];

/** The default brain: repeats what it heard. */
export const liveEchoBrain: LiveBrain = (utterance) => `You said: ${utterance.text}`;

/** The reactions of a brain's answer, as a list. */
export function reactionsOf(answer: ReturnType<LiveBrain>): readonly LiveReaction[] {
  if (typeof answer === 'string') return [{ type: 'speak', text: answer }];
  if (Array.isArray(answer)) return answer as readonly LiveReaction[];
  return [answer as LiveReaction];
}
