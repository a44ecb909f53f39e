import type { Agent } from '../../../agent.js';
import { UserError } from '../../../errors.js';

/** A tool call waiting for the app's decision. */
export interface PendingApproval<TContext = unknown> {
  readonly callId: string;
  readonly name: string;
  readonly arguments: string;
  readonly agent: Agent<TContext>;
  readonly responseId?: string;
  /** Set for a call of a tool the provider runs itself: `name` is then a tool of this hosted MCP server. */
  readonly hosted?: { readonly kind: 'mcp'; readonly server: string };
}

/** What a standing decision (`always: true`) covers: a function tool by name, a hosted tool by server and name. */
function standingKey(approval: Pick<PendingApproval, 'name' | 'hosted'>): string {
  return approval.hosted
    ? `${approval.hosted.kind}:${approval.hosted.server}\u0000${approval.name}`
    : approval.name;
}

/** The app's decision on one call. */
export type ApprovalDecision = { approved: true } | { approved: false; message?: string };

interface Waiting<TContext> {
  approval: PendingApproval<TContext>;
  resolve(decision: ApprovalDecision): void;
}

/**
 * Approval bookkeeping: calls waiting for a decision, and standing decisions per tool name
 * (`always: true`). Decisions bind to the call id. `clear()` drops every waiting call (their tasks
 * are cancelled by the session); standing decisions survive for the life of the session.
 */
export class ApprovalBook<TContext> {
  /** Both created on first use: most sessions never wait for an approval. */
  #waiting: Map<string, Waiting<TContext>> | undefined;
  #standing: Map<string, ApprovalDecision> | undefined;

  get pending(): readonly PendingApproval<TContext>[] {
    return this.#waiting ? [...this.#waiting.values()].map((w) => w.approval) : [];
  }

  /** A standing decision for this call's tool, if the app gave one with `always: true`. */
  standing(approval: Pick<PendingApproval, 'name' | 'hosted'>): ApprovalDecision | undefined {
    return this.#standing?.get(standingKey(approval));
  }

  /** Waits for the decision on `approval`; rejects with the signal's reason when it aborts. */
  wait(approval: PendingApproval<TContext>, signal: AbortSignal): Promise<ApprovalDecision> {
    return new Promise<ApprovalDecision>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        this.#waiting?.delete(approval.callId);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting ??= new Map<string, Waiting<TContext>>();
      this.#waiting.set(approval.callId, {
        approval,
        resolve: (decision) => {
          signal.removeEventListener('abort', onAbort);
          resolve(decision);
        },
      });
    });
  }

  /** Settles call `callId`; with `always`, also every other waiting and future call of the same tool. */
  decide(callId: string, decision: ApprovalDecision, always: boolean): void {
    const waiting = this.#waiting?.get(callId);
    if (!waiting) {
      throw new UserError(
        `No tool call "${callId}" is waiting for approval. Use the callId of a tool_approval_requested event that has not been decided yet.`,
        { code: 'unknown_approval' },
      );
    }
    const settle = (entry: Waiting<TContext>) => {
      this.#waiting?.delete(entry.approval.callId);
      entry.resolve(decision);
    };
    settle(waiting);
    if (!always) return;
    this.#standing ??= new Map();
    const key = standingKey(waiting.approval);
    this.#standing.set(key, decision);
    for (const other of [...(this.#waiting?.values() ?? [])]) {
      if (standingKey(other.approval) === key) settle(other);
    }
  }

  /** Forgets every waiting call (the session cancels their tasks). */
  clear(): void {
    this.#waiting?.clear();
  }
}
