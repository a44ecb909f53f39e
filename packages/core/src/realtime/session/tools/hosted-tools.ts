import type { Agent } from '../../../agent.js';
import type { RunContext } from '../../../context.js';
import {
  decideHostedMcpApproval,
  findHostedMcpTool,
  type HostedMcpApprovalDecision,
} from '../../../hosted-tool.js';
import { RecentIds } from '../../../recent-ids.js';
import type { RealtimeEvent } from '../../seam.js';
import type { ResponseCoordinator } from '../responses/response-coordinator.js';
import type { ResponseTracker } from '../responses/response-tracker.js';
import type { SessionState } from '../session-state.js';
import type { TaskSet } from '../task-set.js';
import type { ApprovalBook, PendingApproval } from './approvals.js';

type EventOf<T extends RealtimeEvent['type']> = Extract<RealtimeEvent, { type: T }>;

/** How many approval ids a session remembers, so a repeated request is not asked twice. */
const REMEMBERED_APPROVALS = 256;

/** What the hosted tools unit needs from its session. */
export interface HostedToolsPort<TContext> {
  readonly state: Pick<SessionState<TContext>, 'agent' | 'live' | 'send' | 'emit' | 'reportError'>;
  readonly tasks: Pick<TaskSet, 'spawn'>;
  readonly approvals: Pick<ApprovalBook<TContext>, 'standing' | 'wait'>;
  readonly responses: Pick<ResponseTracker<TContext>, 'get'>;
  readonly coordinator: Pick<ResponseCoordinator, 'toolCallStarted' | 'toolCallFinished'>;
}

/**
 * The tools the provider runs itself (providers with `capabilities.hostedTools`). Their calls are reported as
 * `hosted_tool_call` events. An approval the provider asks for is decided by the server's `onApproval` when it has
 * one, else by a standing decision, else by the app through the function tools' path (`tool_approval_requested`
 * with `hosted`, then `approve()` / `reject()`); the decision goes back with `sendHostedToolApproval`, and the
 * response coordinator then asks for the follow-up as after a tool output (the asking response's one follow-up).
 * An approval id is decided once: a repeated request is a warning.
 */
export class HostedTools<TContext> {
  readonly #runContext: RunContext<TContext>;
  readonly #port: HostedToolsPort<TContext>;
  readonly #asked = new RecentIds(REMEMBERED_APPROVALS);

  constructor(runContext: RunContext<TContext>, port: HostedToolsPort<TContext>) {
    this.#runContext = runContext;
    this.#port = port;
  }

  /** The provider reported a hosted tool's call (or a tool listing). */
  called(event: EventOf<'hosted_tool_call'>): void {
    const { state } = this.#port;
    state.emit({
      type: 'hosted_tool_call',
      agent: this.#agentOf(event.responseId),
      item: {
        type: 'hosted_tool_call',
        id: event.itemId,
        status: event.status,
        kind: 'mcp',
        server: event.server,
        action: event.action,
      },
      ...(event.responseId !== undefined && { responseId: event.responseId }),
      ...(event.approvalId !== undefined && { approvalId: event.approvalId }),
    });
  }

  /** The provider asks for a decision on a hosted tool's call. */
  approvalRequested(event: EventOf<'hosted_tool_approval_requested'>): void {
    const { state, tasks, coordinator } = this.#port;
    if (this.#asked.has(event.approvalId)) {
      state.emit({
        type: 'warning',
        code: 'hosted_approval_repeated',
        message: `The provider asked again for approval ${event.approvalId} ("${event.name}" on "${event.server}"); it is decided once, so the repeat was ignored.`,
      });
      return;
    }
    this.#asked.add(event.approvalId);
    const approval: PendingApproval<TContext> = {
      callId: event.approvalId,
      name: event.name,
      arguments: event.arguments,
      agent: this.#agentOf(event.responseId),
      hosted: { kind: 'mcp', server: event.server },
      ...(event.responseId !== undefined && { responseId: event.responseId }),
    };
    coordinator.toolCallStarted(event.approvalId, event.responseId);
    tasks.spawn(
      async (signal) => {
        const decision = await this.#decide(approval, signal);
        if (signal.aborted || !state.live) return;
        let sent = true;
        try {
          state.send({
            type: 'sendHostedToolApproval',
            approvalId: approval.callId,
            approved: decision.approve,
            ...(!decision.approve && decision.reason !== undefined && { reason: decision.reason }),
          });
        } catch (error) {
          sent = false;
          state.reportError('tool', error, 'hosted_approval_not_sent');
        }
        coordinator.toolCallFinished(approval.callId, !sent);
      },
      (error) => state.reportError('tool', error),
    );
  }

  /** The server's `onApproval`, else a standing decision, else the app's. */
  async #decide(
    approval: PendingApproval<TContext>,
    signal: AbortSignal,
  ): Promise<HostedMcpApprovalDecision> {
    const { state, approvals } = this.#port;
    const server = approval.hosted?.server ?? '';
    const automatic = await decideHostedMcpApproval(
      findHostedMcpTool(approval.agent.hostedTools, server),
      this.#runContext,
      { server, name: approval.name, arguments: approval.arguments, signal },
      (error) => state.reportError('tool', error, 'hosted_approval_failed'),
    );
    if (automatic !== undefined) return automatic;
    const decided = approvals.standing(approval) ?? (await this.#ask(approval, signal));
    if (decided.approved) return { approve: true };
    return decided.message === undefined ? { approve: false } : { approve: false, reason: decided.message };
  }

  #ask(approval: PendingApproval<TContext>, signal: AbortSignal) {
    const decision = this.#port.approvals.wait(approval, signal);
    this.#port.state.emit({ type: 'tool_approval_requested', ...approval });
    return decision;
  }

  #agentOf(responseId: string | undefined): Agent<TContext> {
    const response = responseId !== undefined ? this.#port.responses.get(responseId) : undefined;
    return response?.agent ?? this.#port.state.agent;
  }
}
