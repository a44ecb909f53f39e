import { SessionClosedError } from '../errors.js';
import type { SessionState } from '../session-state.js';
import type { ApprovalBook, ApprovalDecision } from './approvals.js';
import type { Delegations } from './delegations.js';

/**
 * The app's `approve()` / `reject()`: a decision goes to the delegation or the tool call waiting for it (a
 * delegated approval first, by its call id), while the session is open.
 */
export class CallDecisions<TContext> {
  readonly #state: SessionState<TContext>;
  readonly #approvals: ApprovalBook<TContext>;
  readonly #delegations: Delegations<TContext>;

  constructor(
    state: SessionState<TContext>,
    approvals: ApprovalBook<TContext>,
    delegations: Delegations<TContext>,
  ) {
    this.#state = state;
    this.#approvals = approvals;
    this.#delegations = delegations;
  }

  decide(callId: string, decision: ApprovalDecision, always: boolean): void {
    if (this.#state.closing || this.#state.status === 'closed') throw new SessionClosedError();
    if (this.#delegations.has(callId)) {
      this.#delegations.decide(callId, decision.approved, decision.approved ? undefined : decision.message);
      return;
    }
    this.#approvals.decide(callId, decision, always);
  }
}
