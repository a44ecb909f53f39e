/**
 * The provider withdrew a function call it made (for example because the user interrupted the response that made
 * it): the call must not run on and its output must not be sent. Emitted once per call; a call the session never
 * saw, or whose output it already sent, is left as it is.
 */
export interface RealtimeFunctionCallCancelledEventV1 {
  type: 'function_call_cancelled';
  callId: string;
}
