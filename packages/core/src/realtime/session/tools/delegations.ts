import type { Agent } from '../../../agent.js';
import { CONTEXT_APPEND_CHUNK_CHARS } from '../../../constants.js';
import type { RunContext } from '../../../context.js';
import { UserError } from '../../../errors.js';
import { assistantMessage, type ConversationItem, userMessage } from '../../../items.js';
import { RunHooks } from '../../../runner/hooks.js';
import type { ToolApprovalItem } from '../../../runner/run-items.js';
import type { RunResult } from '../../../runner/run-result.js';
import type { RunState } from '../../../runner/run-state.js';
import { Runner } from '../../../runner/runner.js';
import type { ContextAppendKind, RealtimeCommand, RealtimeEvent } from '../../seam.js';
import type { RealtimeSessionEvent } from '../events/events.js';
import type { RealtimeHistoryItem } from '../history/history-item.js';
import type { TaskSet } from '../task-set.js';

/** How a delegated result reaches the voice model: spoken (`commentary`) or as a silent thought. */
export type DelegateDelivery = 'commentary' | 'thought';

interface PendingApproval<TContext> {
  delegationId: string;
  item: ToolApprovalItem<TContext>;
  decide: (approved: boolean, message?: string) => void;
}

/** What the delegations unit needs from the session. */
export interface DelegationsHost<TContext> {
  readonly delegate: Agent<TContext> | undefined;
  readonly delivery: DelegateDelivery;
  readonly runContext: RunContext<TContext>;
  readonly tasks: TaskSet;
  readonly history: () => readonly RealtimeHistoryItem[];
  readonly send: (command: RealtimeCommand) => void;
  readonly emit: (event: RealtimeSessionEvent<TContext>) => void;
  readonly reportError: (error: unknown) => void;
}

/** The conversation up to now as text-agent input: what the user and the voice said (transcripts). */
export function delegationInput(history: readonly RealtimeHistoryItem[]): ConversationItem[] {
  const items: ConversationItem[] = [];
  for (const item of history) {
    if (item.type !== 'message' || item.text.trim() === '') continue;
    if (item.role === 'user') items.push(userMessage(item.text));
    else if (item.role === 'assistant') items.push(assistantMessage(item.text));
  }
  return items;
}

/** Splits text into appends no longer than {@link CONTEXT_APPEND_CHUNK_CHARS}, at spaces where possible. */
export function appendChunks(text: string): string[] {
  const chunks: string[] = [];
  let rest = text.trim();
  while (rest.length > CONTEXT_APPEND_CHUNK_CHARS) {
    const space = rest.lastIndexOf(' ', CONTEXT_APPEND_CHUNK_CHARS);
    const cut = space > CONTEXT_APPEND_CHUNK_CHARS / 2 ? space : CONTEXT_APPEND_CHUNK_CHARS;
    chunks.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0) chunks.push(rest);
  return chunks;
}

/**
 * Delegation: when the voice model hands work to the app (`delegation_requested`, target `app`), the session's
 * `delegate` agent runs with the Runner on the conversation so far (tools, guardrails, approvals and cancellation as
 * in a text run) and its final output goes back as context appends carrying the delegation id — spoken commentary or
 * a silent thought. Several delegations run at once; a tool needing approval pauses only its own delegation until
 * `session.approve` / `session.reject`. Every delegation gets an answer (a failure is reported in words too), because
 * the voice model waits for one.
 */
export class Delegations<TContext> {
  readonly #host: DelegationsHost<TContext>;
  /** Created on first use: most sessions never delegate. */
  #approvals: Map<string, PendingApproval<TContext>> | undefined;
  /** Created at the first delegation: most sessions have no delegate. */
  #runner: Runner | undefined;
  #requests = 0;

  constructor(host: DelegationsHost<TContext>) {
    this.#host = host;
  }

  #delegateRunner(): Runner {
    this.#runner ??= new Runner();
    return this.#runner;
  }

  /** Calls waiting for a decision, by call id. */
  has(callId: string): boolean {
    return this.#approvals?.has(callId) ?? false;
  }

  /** Decides a delegated call waiting for approval. */
  decide(callId: string, approved: boolean, message?: string): void {
    const pending = this.#approvals?.get(callId);
    if (!pending) throw new UserError(`No delegated tool call "${callId}" waits for a decision.`);
    this.#approvals?.delete(callId);
    pending.decide(approved, message);
  }

  /** A provider delegation event. */
  requested(event: Extract<RealtimeEvent, { type: 'delegation_requested' }>): void {
    const { delegationId, offsetMs, target } = event;
    this.#host.emit({ type: 'delegation_requested', delegationId, offsetMs, target });
    const delegate = this.#host.delegate;
    if (target !== 'app' || !delegate) return;
    const input = delegationInput(this.#host.history());
    this.#host.tasks.spawn(
      (signal) => this.#run(delegate, delegationId, input, signal),
      (error) => this.#host.reportError(error),
    );
  }

  /** Sends `text` as appends of `kind`, answering `delegationId` when given. Returns the request ids. */
  append(kind: ContextAppendKind, text: string, delegationId?: string): string[] {
    return appendChunks(text).map((chunk) => {
      const clientRequestId = `parley_append_${++this.#requests}`;
      this.#host.send({
        type: 'appendContext',
        kind,
        text: chunk,
        clientRequestId,
        ...(delegationId !== undefined && { delegationId }),
      });
      return clientRequestId;
    });
  }

  async #run(
    delegate: Agent<TContext>,
    delegationId: string,
    input: ConversationItem[],
    signal: AbortSignal,
  ): Promise<void> {
    const host = this.#host;
    host.emit({ type: 'delegation_started', delegationId, agent: delegate });
    let answer: string;
    let status: 'completed' | 'failed' = 'completed';
    try {
      const hooks = this.#toolEvents(delegationId);
      let result: RunResult<TContext, undefined> = await this.#delegateRunner().run(delegate, input, {
        context: host.runContext.context,
        signal,
        hooks,
      });
      while (result.interruptions.length > 0) {
        const state = result.state;
        await Promise.all(
          result.interruptions.map((item) => this.#awaitDecision(delegationId, item, state, signal)),
        );
        result = await this.#delegateRunner().run(delegate, state, {
          context: host.runContext.context,
          signal,
          hooks,
        });
      }
      const output = result.finalOutput;
      answer = typeof output === 'string' ? output : JSON.stringify(output);
    } catch (error) {
      if (signal.aborted) throw error;
      status = 'failed';
      answer = 'I could not complete that request.';
      host.reportError(error);
    }
    if (signal.aborted) return;
    this.append(host.delivery, answer, delegationId);
    host.emit({ type: 'delegation_done', delegationId, status, output: answer });
  }

  /**
   * The delegate's tool calls, reported as the voice agent's are (`tool_started`, `tool_done`) with the delegation's
   * id: an app sees every tool a call ran, whichever model called it.
   */
  #toolEvents(delegationId: string): RunHooks<TContext> {
    const hooks = new RunHooks<TContext>();
    hooks.on('tool_started', ({ agent, call }) => {
      this.#host.emit({
        type: 'tool_started',
        agent: agent as Agent<TContext>,
        callId: call.callId,
        name: call.name,
        arguments: call.arguments,
        delegationId,
      });
    });
    hooks.on('tool_done', ({ agent, call, result }) => {
      this.#host.emit({
        type: 'tool_done',
        agent: agent as Agent<TContext>,
        callId: call.callId,
        name: call.name,
        output: result.output,
        status: result.status,
        delegationId,
        ...(result.status === 'completed' && result.background && { background: true as const }),
        ...(result.status === 'failed' && { error: result.error }),
      });
    });
    return hooks;
  }

  #awaitDecision(
    delegationId: string,
    item: ToolApprovalItem<TContext>,
    state: RunState<TContext>,
    signal: AbortSignal,
  ): Promise<void> {
    const { callId, name, arguments: args } = item.rawItem;
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#approvals?.delete(callId);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#approvals ??= new Map<string, PendingApproval<TContext>>();
      this.#approvals.set(callId, {
        delegationId,
        item,
        decide: (approved, message) => {
          signal.removeEventListener('abort', onAbort);
          if (approved) state.approve(item);
          else state.reject(item, message === undefined ? {} : { message });
          resolve();
        },
      });
      this.#host.emit({ type: 'delegation_approval_requested', delegationId, callId, name, arguments: args });
    });
  }
}
