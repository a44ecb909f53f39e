import { abortable } from '../../../abortable.js';
import type { Agent, AnyFunctionTool } from '../../../agent.js';
import type { Clock } from '../../../clock.js';
import type { RunContext } from '../../../context.js';
import { ParleyError } from '../../../errors.js';
import type { Handoff } from '../../../handoff.js';
import { errorText } from '../../../logger.js';
import { type NestedRunPort, toolAgent } from '../../../nested-run.js';
import { formatToolError, type ToolErrorFormatter, type ToolErrorKind } from '../../../runner/run-config.js';
import type { RunState } from '../../../runner/run-state.js';
import type { RunStreamEvent } from '../../../runner/stream-events.js';
import { callNeedsApproval, defaultToolErrorFunction, invokeFunctionTool } from '../../../tool.js';
import type { RealtimeEvent } from '../../seam.js';
import type { AgentSwitcher } from '../agents/agent-switch.js';
import {
  SessionNotConnectedError,
  ToolCallCancelledError,
  ToolCallConflictError,
  ToolOutputNotSentError,
  UnknownToolError,
} from '../errors.js';
import type { RealtimeToolCallStatus } from '../events/events.js';
import { sessionToolSpan } from '../events/session-tracing.js';
import type { HistoryMirror } from '../history/history-mirror.js';
import type { UnacknowledgedInputs } from '../history/unacknowledged-inputs.js';
import type { ResponseCoordinator } from '../responses/response-coordinator.js';
import type { ResponseTracker } from '../responses/response-tracker.js';
import type { SessionState } from '../session-state.js';
import type { TaskSet } from '../task-set.js';
import type { ApprovalBook, ApprovalDecision, PendingApproval } from './approvals.js';
import { ToolCallLedger, type UnsentToolOutput } from './tool-call-ledger.js';

/** A function call to run, bound to the agent whose response produced it. */
export interface ToolCall<TContext> {
  callId: string;
  name: string;
  arguments: string;
  responseId?: string;
  agent: Agent<TContext>;
}

/** What the executor takes from the session's options. */
export interface ToolExecutorSettings<TContext> {
  readonly runContext: RunContext<TContext>;
  readonly clock: Clock;
  readonly toolTimeoutMs: number | undefined;
  readonly toolErrorFormatter: ToolErrorFormatter<TContext> | undefined;
  /** Calls run one at a time, in arrival order (`asyncToolCalls: false`). */
  readonly sequential: boolean;
}

/** What the executor needs from its session. */
export interface ToolExecutorPort<TContext> {
  /** The active agent (calls of a response the session does not know run against it), the way out. */
  readonly state: Pick<SessionState<TContext>, 'agent' | 'live' | 'send' | 'emit' | 'reportError'> & {
    /** Whether anyone listens for an event type (an agent tool's run is streamed only then). */
    readonly hub: Pick<SessionState<TContext>['hub'], 'observed'>;
  };
  readonly tasks: Pick<TaskSet, 'spawn'>;
  readonly approvals: Pick<ApprovalBook<TContext>, 'standing' | 'wait'>;
  /** The response of a call: its agent, whether it runs with tools off, whether the session dropped it as stale. */
  readonly responses: Pick<ResponseTracker<TContext>, 'get' | 'wasDropped'>;
  readonly mirror: Pick<
    HistoryMirror<TContext>,
    'functionCallArrived' | 'functionCall' | 'toolOutput' | 'toolCancelled'
  >;
  readonly coordinator: Pick<ResponseCoordinator, 'toolCallStarted' | 'toolCallFinished'>;
  /** Outputs sent (or lost under a failed write) that the provider has not acknowledged. */
  readonly unacknowledged: Pick<UnacknowledgedInputs, 'outputSent' | 'outputLost'>;
  /** A handoff switches agents through the session's one agent-switch path. */
  readonly switcher: Pick<AgentSwitcher<TContext>, 'switch'>;
}

/**
 * Owns the model's function calls from arrival to output. A call is mirrored into history and announced to
 * the coordinator (which coalesces parallel calls into one follow-up), then run: concurrently (default) or
 * one at a time in arrival order. Each call validates its arguments (through {@link invokeFunctionTool}),
 * asks for approval when the tool needs it, runs tool guardrails and its timeout, and always ends in exactly
 * one output, unless the session is closing (then it sends nothing). An output is sent, then mirrored, then
 * reported to the coordinator, in that order: the follow-up it may trigger must find the output in place.
 * Calls from out-of-band responses (which run with tools off) are neither run nor remembered.
 *
 * A call id runs at most once per session ({@link ToolCallLedger}, kept across reconnects): a repeat is a
 * warning, a changed payload under a known id an error; neither runs nor sends an output. A repeat of a call
 * whose output could not be sent sends that output (the tool does not run again). A call the provider
 * cancels while it waits or runs is stopped (its signal aborts), sends no output and ends `cancelled`.
 */
export class ToolExecutor<TContext> {
  readonly #settings: ToolExecutorSettings<TContext>;
  readonly #host: ToolExecutorPort<TContext>;
  readonly #ledger = new ToolCallLedger();
  #tail: Promise<void> = Promise.resolve();
  /** Calls admitted and not yet over, with what stops each. Created on the first call. */
  #running: Map<string, { call: ToolCall<TContext>; stop: (reason: unknown) => void }> | undefined;

  constructor(settings: ToolExecutorSettings<TContext>, port: ToolExecutorPort<TContext>) {
    this.#settings = settings;
    this.#host = port;
  }

  /** The provider called a function. */
  callReceived(event: Extract<RealtimeEvent, { type: 'function_call' }>): void {
    const host = this.#host;
    if (event.responseId !== undefined && host.responses.wasDropped(event.responseId)) {
      host.state.emit({
        type: 'warning',
        code: 'response_event_ignored',
        message: `The provider delivered tool call ${event.callId} of response ${event.responseId} after the session dropped that response as stale; not run.`,
      });
      return;
    }
    host.mirror.functionCallArrived(event);
    const response = event.responseId !== undefined ? host.responses.get(event.responseId) : undefined;
    if (response?.ephemeral === true) {
      host.state.emit({
        type: 'warning',
        code: 'out_of_band_tool_call_ignored',
        message: `The provider called tool "${event.name}" from out-of-band response ${event.responseId}, which runs with tools off; the call was ignored.`,
      });
      return;
    }
    const admission = this.#ledger.admit(event);
    if (admission.kind === 'conflict') {
      host.state.reportError('tool', new ToolCallConflictError(event.callId, admission.first, event));
      return;
    }
    if (admission.kind === 'cancelled') {
      host.state.emit({
        type: 'warning',
        code: 'tool_call_cancelled_before',
        message: `The provider delivered call ${event.callId} ("${event.name}") after it had cancelled it; not run.`,
      });
      return;
    }
    if (admission.kind === 'resend') {
      this.#resend(event, response?.agent ?? host.state.agent, admission.unsent);
      return;
    }
    if (admission.kind === 'repeat') {
      host.state.emit({
        type: 'warning',
        code: 'tool_call_repeated',
        message: `The provider delivered call ${event.callId} ("${event.name}") again; it runs once per session, so the repeat was ignored.`,
      });
      return;
    }
    const agent = response?.agent ?? host.state.agent;
    host.mirror.functionCall(event, agent);
    host.coordinator.toolCallStarted(event.callId, event.responseId);
    this.#dispatch({
      callId: event.callId,
      name: event.name,
      arguments: event.arguments,
      agent,
      ...(event.responseId !== undefined && { responseId: event.responseId }),
    });
  }

  /** The provider delivered again a call whose output could not be sent: that output goes out now. */
  #resend(
    event: Extract<RealtimeEvent, { type: 'function_call' }>,
    agent: Agent<TContext>,
    unsent: UnsentToolOutput,
  ): void {
    const call: ToolCall<TContext> = {
      callId: event.callId,
      name: event.name,
      arguments: event.arguments,
      agent,
      ...(event.responseId !== undefined && { responseId: event.responseId }),
    };
    this.#host.state.emit({
      type: 'warning',
      code: 'tool_output_resent',
      message: `The provider delivered call ${event.callId} ("${event.name}") again; its output, which could not be sent before, was sent now (the tool did not run again).`,
    });
    this.#host.coordinator.toolCallStarted(call.callId, call.responseId);
    this.#host.tasks.spawn(
      async (signal) => {
        if (this.#deliver(call, unsent, signal)) this.#done(call, unsent);
      },
      (error) => this.#host.state.reportError('tool', error),
    );
  }

  #dispatch(call: ToolCall<TContext>): void {
    const onError = (error: unknown) => this.#host.state.reportError('tool', error);
    this.#running ??= new Map();
    const running = this.#running;
    const over = () => {
      if (running.get(call.callId)?.call === call) running.delete(call.callId);
    };
    if (!this.#settings.sequential) {
      const stop = this.#host.tasks.spawn((signal) => this.#run(call, signal).finally(over), onError);
      running.set(call.callId, { call, stop });
      return;
    }
    const previous = this.#tail;
    let finished!: () => void;
    this.#tail = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const stop = this.#host.tasks.spawn(async (signal) => {
      try {
        await previous;
        if (!signal.aborted) await this.#run(call, signal);
      } finally {
        over();
        finished();
      }
    }, onError);
    running.set(call.callId, { call, stop });
  }

  /**
   * The provider cancelled call `callId`. While it waits (for approval, or its turn) or runs, it is stopped: its
   * signal aborts with a {@link ToolCallCancelledError}, no output is sent, history marks it cancelled, and
   * `tool_done` reports it `cancelled`; it asks for no follow-up. Once its output went out the cancel comes too late
   * (a warning); a call not delivered yet never runs.
   */
  callCancelled(callId: string): void {
    const host = this.#host;
    const running = this.#running?.get(callId);
    const known = this.#ledger.cancel(callId);
    if (!running) {
      if (known) {
        host.state.emit({
          type: 'warning',
          code: 'tool_call_cancel_ignored',
          message: `The provider cancelled call ${callId} after it had ended; its output stands.`,
        });
      }
      return;
    }
    this.#running?.delete(callId);
    const { call, stop } = running;
    stop(new ToolCallCancelledError(callId, call.name));
    host.mirror.toolCancelled(callId);
    host.coordinator.toolCallFinished(callId, true, true);
    host.state.emit({
      type: 'tool_done',
      agent: call.agent,
      callId,
      name: call.name,
      output: '',
      status: 'cancelled',
      ...(call.responseId !== undefined && { responseId: call.responseId }),
    });
  }

  /** Forgets the sequential order and the running calls (after the tasks were cancelled). */
  reset(): void {
    this.#tail = Promise.resolve();
    this.#running?.clear();
  }

  async #run(call: ToolCall<TContext>, signal: AbortSignal): Promise<void> {
    const { agent } = call;
    const handoff = agent.findHandoff(call.name);
    if (handoff) {
      await this.#runHandoff(handoff, call, signal);
      return;
    }
    const tool = agent.findTool(call.name);
    if (!tool) {
      const error = new UnknownToolError(call.name, agent.name);
      this.#host.state.reportError('tool', error);
      const output = `Error: there is no tool named "${call.name}". Use only the tools you were given.`;
      this.#deliver(call, { output, failed: true, background: false }, signal);
      return;
    }
    const decision = await this.#approval(tool, call, signal);
    if (!decision.approved) {
      const output =
        decision.message ??
        (await this.#formatted(
          'approval_rejected',
          call,
          `The user rejected the call to "${call.name}". Do not call it again.`,
        ));
      this.#end(call, output, 'approval_rejected', signal);
      return;
    }
    this.#host.state.emit({
      type: 'tool_started',
      agent,
      callId: call.callId,
      name: call.name,
      arguments: call.arguments,
      ...(call.responseId !== undefined && { responseId: call.responseId }),
    });
    let output: string;
    let status: RealtimeToolCallStatus;
    let background = false;
    let failure: { error: unknown } | undefined;
    try {
      const result = await invokeFunctionTool(tool, {
        agent,
        runContext: this.#settings.runContext,
        call: { callId: call.callId, name: call.name, arguments: call.arguments },
        signal,
        defaultTimeoutMs: this.#settings.toolTimeoutMs,
        clock: this.#settings.clock,
        ...(this.#settings.toolErrorFormatter && {
          formatError: (error: unknown) =>
            this.#formatted(
              'execution_failed',
              call,
              defaultToolErrorFunction(this.#settings.runContext, error),
              error,
            ),
        }),
        ...(toolAgent(tool) !== undefined && { nested: this.#nestedRunPort(tool, call, signal) }),
      });
      output = result.output;
      status = result.status;
      background = result.status === 'completed' && result.background === true;
      if (result.status === 'failed') failure = { error: result.error };
    } catch (error) {
      if (signal.aborted) throw error;
      // A tool guardrail tripwire or a timeout set to raise: the session goes on, the model is told (Parley's
      // own words only: an error thrown by app code may carry secrets).
      this.#host.state.reportError('tool', error);
      const why = error instanceof ParleyError ? `: ${errorText(error)}` : '.';
      output = `Error: the call to "${call.name}" was stopped${why}`;
      status = 'error';
      failure = { error };
    }
    this.#end(call, output, status, signal, background, failure);
  }

  /** The app's `toolErrorFormatter` text for a failed or rejected call, or the default. */
  #formatted(
    kind: ToolErrorKind,
    call: ToolCall<TContext>,
    defaultMessage: string,
    error?: unknown,
  ): Promise<string> {
    const { toolErrorFormatter, runContext } = this.#settings;
    return formatToolError(toolErrorFormatter, kind, call, defaultMessage, runContext, error);
  }

  async #approval(
    tool: AnyFunctionTool<TContext>,
    call: ToolCall<TContext>,
    signal: AbortSignal,
  ): Promise<ApprovalDecision> {
    const info = { callId: call.callId, name: call.name, arguments: call.arguments };
    const needed = await callNeedsApproval(tool, this.#settings.runContext, info, signal);
    if (signal.aborted) throw signal.reason;
    if (!needed) return { approved: true };
    return await this.#ask(
      {
        callId: call.callId,
        name: call.name,
        arguments: call.arguments,
        agent: call.agent,
        ...(call.responseId !== undefined && { responseId: call.responseId }),
      },
      signal,
    );
  }

  /** Asks the app to decide on a call (unless a standing decision covers its tool). */
  async #ask(approval: PendingApproval<TContext>, signal: AbortSignal): Promise<ApprovalDecision> {
    const standing = this.#host.approvals.standing(approval);
    if (standing) return standing;
    const decision = this.#host.approvals.wait(approval, signal);
    this.#host.state.emit({ type: 'tool_approval_requested', ...approval });
    return await decision;
  }

  /**
   * What an agent tool's run borrows from this call: its approvals are asked like the session's own (a
   * `tool_approval_requested` naming the nested agent and call), and the nested run resumes once all are decided.
   * While anyone listens for `agent_tool_event` when the call starts, the nested run is streamed and each of its
   * events is emitted tagged with the nested agent, the tool and this call.
   */
  #nestedRunPort(
    tool: AnyFunctionTool<TContext>,
    call: ToolCall<TContext>,
    signal: AbortSignal,
  ): NestedRunPort {
    const state = this.#host.state;
    const nestedAgent = toolAgent<TContext>(tool);
    const streamed = nestedAgent !== undefined && state.hub.observed('agent_tool_event');
    return {
      ...(streamed && {
        onEvent: (event: RunStreamEvent<unknown>) =>
          state.emit({
            type: 'agent_tool_event',
            agent: nestedAgent,
            toolName: tool.name,
            toolCallId: call.callId,
            event: event as RunStreamEvent<TContext>,
            ...(call.responseId !== undefined && { responseId: call.responseId }),
          }),
      }),
      parentSpan: sessionToolSpan(this.#settings.runContext as RunContext<unknown>, call.callId),
      pausedRun: undefined,
      paused: async (paused) => {
        const state = paused as RunState<TContext>;
        await Promise.all(
          state.getInterruptions().map(async (item) => {
            const decision = await this.#ask(
              {
                callId: item.rawItem.callId,
                name: item.rawItem.name,
                arguments: item.rawItem.arguments,
                agent: item.agent,
                ...(call.responseId !== undefined && { responseId: call.responseId }),
              },
              signal,
            );
            if (decision.approved) state.approve(item);
            else state.reject(item, decision.message === undefined ? {} : { message: decision.message });
          }),
        );
      },
    };
  }

  async #runHandoff(
    handoff: Handoff<TContext>,
    call: ToolCall<TContext>,
    signal: AbortSignal,
  ): Promise<void> {
    let output: string;
    let failed = false;
    try {
      await abortable(
        this.#host.switcher.switch(
          handoff.agent as Agent<TContext>,
          'tool_call',
          call.callId,
          handoff.onHandoff,
        ),
        signal,
      );
      output = JSON.stringify({ assistant: handoff.agent.name });
    } catch (error) {
      if (signal.aborted) throw error;
      // The switch path already reported the error and kept the previous agent.
      output = `Error: the transfer to "${handoff.agent.name}" failed.`;
      failed = true;
    }
    this.#deliver(call, { output, failed, background: false }, signal);
  }

  /** `background`: the output goes to the model without asking it to answer (a `backgroundResult`). */
  #end(
    call: ToolCall<TContext>,
    output: string,
    status: RealtimeToolCallStatus,
    signal: AbortSignal,
    background = false,
    failure?: { error: unknown },
  ): void {
    const failed = status !== 'completed' && status !== 'approval_rejected';
    const result = { output, failed, background, status, ...(failure && { failure }) };
    if (this.#deliver(call, result, signal)) this.#done(call, result);
  }

  /** `tool_done` for a call whose output was sent (none for a handoff or an unknown tool). */
  #done(call: ToolCall<TContext>, { output, status, background, failure }: UnsentToolOutput): void {
    if (status === undefined) return;
    this.#host.state.emit({
      type: 'tool_done',
      agent: call.agent,
      callId: call.callId,
      name: call.name,
      output,
      status,
      ...(call.responseId !== undefined && { responseId: call.responseId }),
      ...(background && { background }),
      ...(failure && { error: failure.error }),
    });
  }

  /**
   * Sends the call's output, mirrors it, tells the coordinator; `false` once aborted (nothing sent) or when it
   * could not be sent.
   *
   * Ways of not being sent: the session was not connected (closing, or reconnecting), or the connection refused
   * the command and stays open (a `tool_output_not_sent` error; the turn goes on to its follow-up): the output is
   * kept for the call, and sent if the provider delivers the call again. Or the write failed because the
   * connection went away under it (already an `error` event, and the disconnect path follows): the output then
   * stays the call's in history, so a reconnect replays it, and the lost turn names the call. The tool never runs
   * again either way.
   */
  #deliver(call: ToolCall<TContext>, result: UnsentToolOutput, signal: AbortSignal): boolean {
    const host = this.#host;
    const { output, failed, background } = result;
    if (signal.aborted) return false;
    if (!host.state.live) {
      this.#ledger.notSent(call.callId, result);
      return false;
    }
    // From here the call is over: a cancel arriving now comes too late.
    this.#running?.delete(call.callId);
    let sent = true;
    try {
      host.state.send({ type: 'sendToolOutput', callId: call.callId, output });
      host.mirror.toolOutput(call.callId, output);
      host.unacknowledged.outputSent(call.callId);
    } catch (error) {
      if (error instanceof SessionNotConnectedError) {
        host.mirror.toolOutput(call.callId, output);
        host.unacknowledged.outputLost(call.callId);
        return false;
      }
      sent = false;
      this.#ledger.notSent(call.callId, result);
      host.state.reportError('tool', new ToolOutputNotSentError(call.callId, call.name, error));
    }
    // Sent or not, the call is over: its response's one follow-up must not wait for it forever.
    host.coordinator.toolCallFinished(call.callId, failed || !sent, background && sent);
    return sent;
  }
}
