/**
 * The voice model handed work to someone else (providers with `delegation`). There is no task text: the request is
 * what was said up to `offsetMs` on the provider's timeline. `target: 'app'` must be answered with `appendContext`
 * carrying `delegationId`; `'provider'` runs on the provider's own backend, whose function calls arrive as
 * `function_call` events.
 */
export interface RealtimeDelegationRequestedEventV1 {
  type: 'delegation_requested';
  delegationId: string;
  offsetMs: number;
  target: 'app' | 'provider';
}
