import type { Clock, TimerHandle } from '../../../clock.js';
import { MAX_ERROR_FOLLOW_UPS } from '../../../constants.js';
import { ParleyError } from '../../../errors.js';
import type { ToolChoice } from '../../../model.js';
import type { CreateResponseCommand, RealtimeResponseStatus, RealtimeToolDefinition } from '../../seam.js';
import { ParallelToolCalls } from '../tools/parallel-tool-calls.js';

export { MAX_ERROR_FOLLOW_UPS };

/** What a response request asks of the provider. */
export interface ResponseRequestParams {
  /** `false` (the default) joins the conversation; `true` is out of band (ephemeral) and skips the queue. */
  ephemeral?: boolean;
  instructions?: string;
  toolChoice?: ToolChoice;
  tools?: RealtimeToolDefinition[];
  outputModalities?: ('text' | 'audio')[];
}

/** Why a response was requested. */
export type ResponseRequestReason = 'generate_response' | 'user_input' | 'tool_follow_up' | 'guardrail';

/** A response request the coordinator holds: queued, or sent and not yet started. */
export interface PendingResponseRequest {
  readonly clientRequestId: string;
  readonly reason: ResponseRequestReason;
  readonly command: CreateResponseCommand;
  /** `queued` until the active response is done; `sent` once `createResponse` went out. */
  readonly state: 'queued' | 'sent';
}

/** What the coordinator needs from its session. */
export interface ResponseCoordinatorHooks {
  /** Sends the command on the connection. Throwing marks the request failed (see `failed`). */
  send(command: CreateResponseCommand): void;
  /**
   * A queued request could not be sent (`send` threw) when its turn came. The queue has moved on.
   * A request that fails at once makes `request()` throw instead.
   */
  failed(request: PendingResponseRequest, error: unknown): void;
  /** A fresh `clientRequestId`. */
  createRequestId(): string;
  /** A new request waits in the queue behind the active (or requested) response. */
  queued?(request: PendingResponseRequest): void;
  /**
   * Automatic follow-ups that only answered errors hit {@link MAX_ERROR_FOLLOW_UPS} in a row: this one was not
   * requested.
   */
  followUpsStopped?(reason: FollowUpReason, inARow: number): void;
}

/** Why the session asks for a response by itself. */
export type FollowUpReason = 'tool_follow_up' | 'guardrail';

/** Options of {@link ResponseCoordinator}. */
export interface ResponseCoordinatorOptions extends ResponseCoordinatorHooks {
  /** The provider starts follow-up responses after tool outputs itself: never request one. */
  autoToolResponseGeneration: boolean;
  /**
   * With `autoToolResponseGeneration`: how long the queue waits for the provider's own tool follow-up to start
   * before it moves on (timed on `clock`). Without a clock the queue waits for it to start.
   */
  providerFollowUpTimeoutMs?: number;
  clock?: Clock;
}

/** What {@link ResponseCoordinator.responseStarted} learned about a response. */
export interface ResponseStartInfo {
  /** The session's request this response answers, if any. */
  request?: PendingResponseRequest;
  /** `true` when it answers a request the session already gave up on; cancel it. */
  abandoned: boolean;
}

interface MutableRequest {
  clientRequestId: string;
  reason: ResponseRequestReason;
  command: CreateResponseCommand;
  state: 'queued' | 'sent';
}

/**
 * The response-lifecycle rules of a realtime session (docs/architecture.md, "The session's units"), with no I/O of its own:
 *
 * - at most one conversation (not ephemeral) response is active or requested at a time; a request made while
 *   one is active (or requested) waits in a queue until that response is done;
 * - parallel tool calls are coalesced per response ({@link ParallelToolCalls}): one follow-up response per
 *   group, requested by the last call to finish or at the response's end; calls without a response get a
 *   follow-up after each output;
 * - queued requests without parameters (user input, follow-ups) coalesce: one response answers them all; they
 *   join a plain `generate_response` request waiting in the queue, which itself never joins another;
 * - a refused (named or not), failed or abandoned request releases the queue; an abandoned queued one (its response
 *   timeout runs from when it was queued) leaves it;
 * - with `autoToolResponseGeneration`, no follow-up is ever requested, and the queue waits for the provider's
 *   own follow-up to start and end;
 * - automatic follow-ups that only answer errors stop after {@link MAX_ERROR_FOLLOW_UPS} in a row.
 *
 * Only responses that end `completed` get a tool follow-up: after an interrupted or cancelled response
 * the outputs stay in the conversation for the next turn.
 */
export class ResponseCoordinator {
  readonly #hooks: ResponseCoordinatorHooks;
  readonly #autoToolResponse: boolean;
  readonly #queue: MutableRequest[] = [];
  /** Content held back until no response is active or requested (`holdContent`). Created on first use. */
  #held: (() => void)[] | undefined;
  #inFlight: MutableRequest | undefined;
  /** Created on first use: an idle session holds none. */
  #outOfBand: Map<string, MutableRequest> | undefined;
  #activeResponseId: string | undefined;
  /** Created on first use: an idle session holds none. */
  #abandoned: Set<string> | undefined;
  readonly #toolCalls = new ParallelToolCalls();
  readonly #clock: Clock | undefined;
  readonly #providerFollowUpTimeoutMs: number | undefined;
  /** Set while the provider is expected to start its own tool follow-up; the timer bounds the wait. */
  #awaitingProviderFollowUp: { timer: TimerHandle | undefined } | undefined;
  #errorFollowUpsInARow = 0;

  constructor(options: ResponseCoordinatorOptions) {
    this.#hooks = options;
    this.#autoToolResponse = options.autoToolResponseGeneration;
    this.#clock = options.clock;
    this.#providerFollowUpTimeoutMs = options.providerFollowUpTimeoutMs;
  }

  /** The active conversation (not ephemeral) response, once the provider started it. */
  get activeResponseId(): string | undefined {
    return this.#activeResponseId;
  }

  /**
   * `true` while a conversation (not ephemeral) response is active, requested and not yet started, or expected from
   * the provider (its own tool follow-up).
   */
  get busy(): boolean {
    return (
      this.#activeResponseId !== undefined ||
      this.#inFlight !== undefined ||
      this.#awaitingProviderFollowUp !== undefined
    );
  }

  /** Requests waiting for the active response to end, then the one in flight, then out-of-band ones. */
  get pendingRequests(): readonly PendingResponseRequest[] {
    return [
      ...(this.#inFlight ? [this.#inFlight] : []),
      ...this.#queue,
      ...(this.#outOfBand?.values() ?? []),
    ].map((r) => ({ ...r }));
  }

  /**
   * Requests a response: sent now when nothing is active, otherwise queued. Throws what `send` threw
   * when it is sent at once and sending fails.
   */
  request(params: ResponseRequestParams, reason: ResponseRequestReason): PendingResponseRequest {
    const { request, error } = this.#request(params, reason);
    if (error !== undefined) throw error;
    return request;
  }

  #request(
    params: ResponseRequestParams,
    reason: ResponseRequestReason,
  ): { request: PendingResponseRequest; error?: unknown } {
    if (reason === 'user_input' || reason === 'generate_response') this.#errorFollowUpsInARow = 0;
    if (reason !== 'generate_response' && Object.keys(params).length === 0) {
      const joined = this.#queue.find((queued) => isPlain(queued.command));
      if (joined) return { request: { ...joined } };
    }
    const clientRequestId = this.#hooks.createRequestId();
    const command: CreateResponseCommand = {
      type: 'createResponse',
      clientRequestId,
      ephemeral: params.ephemeral ?? false,
      ...(params.instructions !== undefined ? { instructions: params.instructions } : {}),
      ...(params.toolChoice !== undefined ? { toolChoice: params.toolChoice } : {}),
      ...(params.tools !== undefined ? { tools: params.tools } : {}),
      ...(params.outputModalities !== undefined ? { outputModalities: params.outputModalities } : {}),
    };
    const request: MutableRequest = { clientRequestId, reason, command, state: 'queued' };
    if (command.ephemeral || (!this.busy && this.#queue.length === 0)) {
      const error = this.#dispatch(request);
      if (error !== undefined) return { request, error };
    } else {
      this.#queue.push(request);
      this.#hooks.queued?.({ ...request });
    }
    return { request };
  }

  /**
   * Holds `send` (content that would interrupt the model) while a response is active or requested, and runs it once
   * none is, before the next queued request goes out. `false` when nothing is active: the caller sends now. `send`
   * must not throw (it reports its own failures).
   */
  holdContent(send: () => void): boolean {
    if (!this.busy && this.#queue.length === 0) return false;
    this.#held ??= [];
    this.#held.push(send);
    return true;
  }

  /** The provider started a response. */
  responseStarted(event: {
    responseId: string;
    clientRequestId?: string;
    ephemeral: boolean;
  }): ResponseStartInfo {
    const id = event.clientRequestId;
    let request: MutableRequest | undefined;
    if (id !== undefined && this.#inFlight?.clientRequestId === id) {
      request = this.#inFlight;
      this.#inFlight = undefined;
    } else if (id !== undefined && this.#outOfBand?.has(id)) {
      request = this.#outOfBand?.get(id);
      this.#outOfBand?.delete(id);
    }
    const abandoned = id !== undefined && this.#abandoned?.delete(id) === true;
    if (!event.ephemeral) {
      this.#activeResponseId = event.responseId;
      if (id === undefined) {
        // The provider's own response: its tool follow-up, or a turn it started for the user.
        if (this.#awaitingProviderFollowUp) this.#stopAwaitingProvider();
        else this.#errorFollowUpsInARow = 0;
      }
    }
    return { request, abandoned };
  }

  /** The provider ended a response. */
  responseDone(event: {
    responseId: string;
    status: RealtimeResponseStatus;
    ephemeral: boolean;
    clientRequestId?: string;
  }): void {
    if (this.#activeResponseId === event.responseId) this.#activeResponseId = undefined;
    const id = event.clientRequestId;
    if (id !== undefined && this.#inFlight?.clientRequestId === id) this.#inFlight = undefined;
    if (id !== undefined) {
      this.#outOfBand?.delete(id);
      this.#abandoned?.delete(id);
    }
    const due = this.#toolCalls.responseDone(event.responseId, event.status);
    if (due) this.#toolFollowUp(due.succeeded);
    this.#pump();
  }

  /**
   * The provider refused request `clientRequestId`; returns it (if the coordinator held it). A refusal that
   * does not say which request it answers (`undefined`) refuses the conversation (not ephemeral) request in flight
   * (there is at most one), else the only out-of-band request in flight: either way the queue moves on.
   */
  requestRefused(clientRequestId: string | undefined): PendingResponseRequest | undefined {
    if (clientRequestId === undefined) {
      const only = (this.#outOfBand?.size ?? 0) === 1 ? [...(this.#outOfBand?.keys() ?? [])][0] : undefined;
      const named = this.#inFlight?.clientRequestId ?? only;
      if (named === undefined) return undefined;
      clientRequestId = named;
    }
    let request: MutableRequest | undefined;
    if (this.#inFlight?.clientRequestId === clientRequestId) {
      request = this.#inFlight;
      this.#inFlight = undefined;
    } else if (this.#outOfBand?.has(clientRequestId)) {
      request = this.#outOfBand?.get(clientRequestId);
      this.#outOfBand?.delete(clientRequestId);
    }
    this.#abandoned?.delete(clientRequestId);
    this.#pump();
    return request;
  }

  /**
   * The session stops waiting for request `clientRequestId` (a timeout, an abandoned response). A queued
   * request is dropped; a sent one releases the queue, and if it starts later `responseStarted` says so.
   */
  abandon(clientRequestId: string): void {
    const queued = this.#queue.findIndex((r) => r.clientRequestId === clientRequestId);
    if (queued >= 0) {
      this.#queue.splice(queued, 1);
      return;
    }
    if (this.#inFlight?.clientRequestId === clientRequestId) {
      this.#inFlight = undefined;
      this.#abandoned ??= new Set<string>();
      this.#abandoned.add(clientRequestId);
    } else if (this.#outOfBand?.delete(clientRequestId)) {
      this.#abandoned ??= new Set<string>();
      this.#abandoned.add(clientRequestId);
    }
    this.#pump();
  }

  /** A function call of `responseId` (if the provider gave one) started running. */
  toolCallStarted(callId: string, responseId: string | undefined): void {
    this.#toolCalls.started(callId, responseId);
  }

  /**
   * A call's output has been sent (or could not be); may request the follow-up. `failed`: its output reports
   * an error (unknown tool, invalid arguments, a failure), which bounds automatic follow-ups. `background`: the
   * output asks for no response (a group of background outputs only gets no follow-up).
   */
  toolCallFinished(callId: string, failed = false, background = false): void {
    const due = this.#toolCalls.finished(callId, failed, background);
    if (due) this.#toolFollowUp(due.succeeded);
  }

  /**
   * Requests an automatic follow-up (coalescing with a queued one); `answersErrorsOnly` counts it towards
   * {@link MAX_ERROR_FOLLOW_UPS}. Returns `false` when the limit stopped it.
   */
  followUp(reason: FollowUpReason, answersErrorsOnly: boolean): boolean {
    if (!answersErrorsOnly) this.#errorFollowUpsInARow = 0;
    else if (this.#errorFollowUpsInARow >= MAX_ERROR_FOLLOW_UPS) {
      this.#hooks.followUpsStopped?.(reason, this.#errorFollowUpsInARow);
      return false;
    } else this.#errorFollowUpsInARow++;
    // Nobody waits on an automatic request: a failure to send it goes to `failed`, never up the caller's stack.
    const { request, error } = this.#request({}, reason);
    if (error !== undefined) this.#hooks.failed({ ...request }, error);
    return true;
  }

  /** Forgets everything (the connection is gone); returns the requests that will never start. */
  reset(): PendingResponseRequest[] {
    const dropped = [...this.pendingRequests];
    this.#queue.length = 0;
    if (this.#held) this.#held.length = 0;
    this.#inFlight = undefined;
    this.#outOfBand?.clear();
    this.#activeResponseId = undefined;
    this.#abandoned?.clear();
    this.#toolCalls.reset();
    if (this.#awaitingProviderFollowUp) this.#stopAwaitingProvider();
    this.#errorFollowUpsInARow = 0;
    return dropped;
  }

  #toolFollowUp(succeeded: boolean): void {
    if (!this.#autoToolResponse) {
      this.followUp('tool_follow_up', !succeeded);
      return;
    }
    // The provider starts this follow-up itself: nothing may be requested until it has started and ended.
    if (this.#activeResponseId !== undefined || this.#awaitingProviderFollowUp) return;
    const timeoutMs = this.#providerFollowUpTimeoutMs;
    const clock = this.#clock;
    const timer =
      clock && timeoutMs !== undefined
        ? clock.setTimeout(() => {
            this.#awaitingProviderFollowUp = undefined;
            this.#pump();
          }, timeoutMs)
        : undefined;
    this.#awaitingProviderFollowUp = { timer };
  }

  #stopAwaitingProvider(): void {
    const timer = this.#awaitingProviderFollowUp?.timer;
    if (timer !== undefined) this.#clock?.clearTimeout(timer);
    this.#awaitingProviderFollowUp = undefined;
  }

  #pump(): void {
    if (!this.busy && this.#held?.length) {
      for (const send of this.#held.splice(0)) send();
    }
    while (!this.busy && this.#queue.length > 0) {
      const next = this.#queue.shift()!;
      const error = this.#dispatch(next);
      if (error !== undefined) this.#hooks.failed({ ...next }, error);
    }
  }

  /** Sends `request`; returns what `send` threw (the request is then dropped), or `undefined`. */
  #dispatch(request: MutableRequest): unknown {
    request.state = 'sent';
    if (!request.command.ephemeral) this.#inFlight = request;
    else {
      this.#outOfBand ??= new Map<string, MutableRequest>();
      this.#outOfBand.set(request.clientRequestId, request);
    }
    try {
      this.#hooks.send(request.command);
      return undefined;
    } catch (error) {
      if (this.#inFlight === request) this.#inFlight = undefined;
      this.#outOfBand?.delete(request.clientRequestId);
      return error ?? new ParleyError('send_failed', 'Sending the response request failed.');
    }
  }
}

/** A conversation (not ephemeral) request with nothing but its id: any number of them are answered by one response. */
function isPlain(command: CreateResponseCommand): boolean {
  return (
    !command.ephemeral &&
    Object.keys(command).every((key) => key === 'type' || key === 'clientRequestId' || key === 'ephemeral')
  );
}
