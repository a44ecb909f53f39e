import { ParleyError } from '../../errors.js';
import type { ToolChoice } from '../../model.js';
import type { CreateResponseCommand, RealtimeResponseStatus, RealtimeToolDefinition } from '../seam.js';
import { ParallelToolCalls } from './parallel-tool-calls.js';

/** What a response request asks of the provider. */
export interface ResponseRequestParams {
  /** `'default'` (the default) joins the conversation; `'none'` is out of band and skips the queue. */
  conversation?: 'default' | 'none';
  instructions?: string;
  toolChoice?: ToolChoice;
  tools?: RealtimeToolDefinition[];
  outputModalities?: ('text' | 'audio')[];
}

/** Why a response was requested. */
export type ResponseRequestReason = 'reply' | 'user_input' | 'tool_follow_up' | 'guardrail';

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
}

/** Options of {@link ResponseCoordinator}. */
export interface ResponseCoordinatorOptions extends ResponseCoordinatorHooks {
  /** The provider starts follow-up responses after tool outputs itself: never request one. */
  autoToolReplyGeneration: boolean;
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
 * The response-lifecycle rules of a realtime session (DESIGN §4), with no I/O of its own:
 *
 * - at most one default-conversation response is active or requested at a time; a request made while
 *   one is active (or requested) waits in a queue until that response is done;
 * - parallel tool calls are coalesced per response ({@link ParallelToolCalls}): one follow-up response per
 *   group, requested by the last call to finish or at the response's end; calls without a response get a
 *   follow-up after each output (queued follow-ups coalesce);
 * - a refused, failed or abandoned request releases the queue;
 * - with `autoToolReplyGeneration`, no follow-up is ever requested.
 *
 * Only responses that end `completed` get a tool follow-up: after an interrupted or cancelled response
 * the outputs stay in the conversation for the next turn.
 */
export class ResponseCoordinator {
  readonly #hooks: ResponseCoordinatorHooks;
  readonly #autoToolReply: boolean;
  readonly #queue: MutableRequest[] = [];
  #inFlight: MutableRequest | undefined;
  readonly #outOfBand = new Map<string, MutableRequest>();
  #activeResponseId: string | undefined;
  readonly #abandoned = new Set<string>();
  readonly #toolCalls = new ParallelToolCalls();

  constructor(options: ResponseCoordinatorOptions) {
    this.#hooks = options;
    this.#autoToolReply = options.autoToolReplyGeneration;
  }

  /** The active default-conversation response, once the provider started it. */
  get activeResponseId(): string | undefined {
    return this.#activeResponseId;
  }

  /** `true` while a default-conversation response is active or requested and not yet started. */
  get busy(): boolean {
    return this.#activeResponseId !== undefined || this.#inFlight !== undefined;
  }

  /** Requests waiting for the active response to end, then the one in flight, then out-of-band ones. */
  get pendingRequests(): readonly PendingResponseRequest[] {
    return [...(this.#inFlight ? [this.#inFlight] : []), ...this.#queue, ...this.#outOfBand.values()].map(
      (r) => ({ ...r }),
    );
  }

  /**
   * Requests a response: sent now when nothing is active, otherwise queued. Throws what `send` threw
   * when it is sent at once and sending fails.
   */
  request(params: ResponseRequestParams, reason: ResponseRequestReason): PendingResponseRequest {
    const clientRequestId = this.#hooks.createRequestId();
    const command: CreateResponseCommand = {
      type: 'createResponse',
      clientRequestId,
      conversation: params.conversation ?? 'default',
      ...(params.instructions !== undefined ? { instructions: params.instructions } : {}),
      ...(params.toolChoice !== undefined ? { toolChoice: params.toolChoice } : {}),
      ...(params.tools !== undefined ? { tools: params.tools } : {}),
      ...(params.outputModalities !== undefined ? { outputModalities: params.outputModalities } : {}),
    };
    const request: MutableRequest = { clientRequestId, reason, command, state: 'queued' };
    if (command.conversation === 'none' || (!this.busy && this.#queue.length === 0)) {
      const error = this.#dispatch(request);
      if (error !== undefined) throw error;
    } else {
      this.#queue.push(request);
    }
    return request;
  }

  /** The provider started a response. */
  responseStarted(event: {
    responseId: string;
    clientRequestId?: string;
    conversation: 'default' | 'none';
  }): ResponseStartInfo {
    const id = event.clientRequestId;
    let request: MutableRequest | undefined;
    if (id !== undefined && this.#inFlight?.clientRequestId === id) {
      request = this.#inFlight;
      this.#inFlight = undefined;
    } else if (id !== undefined && this.#outOfBand.has(id)) {
      request = this.#outOfBand.get(id);
      this.#outOfBand.delete(id);
    }
    const abandoned = id !== undefined && this.#abandoned.delete(id);
    if (event.conversation === 'default') this.#activeResponseId = event.responseId;
    return { request, abandoned };
  }

  /** The provider ended a response. */
  responseDone(event: {
    responseId: string;
    status: RealtimeResponseStatus;
    conversation: 'default' | 'none';
    clientRequestId?: string;
  }): void {
    if (this.#activeResponseId === event.responseId) this.#activeResponseId = undefined;
    const id = event.clientRequestId;
    if (id !== undefined && this.#inFlight?.clientRequestId === id) this.#inFlight = undefined;
    if (id !== undefined) {
      this.#outOfBand.delete(id);
      this.#abandoned.delete(id);
    }
    if (this.#toolCalls.responseDone(event.responseId, event.status)) this.#followUp();
    this.#pump();
  }

  /** The provider refused request `clientRequestId`; returns it (if the coordinator held it). */
  requestRefused(clientRequestId: string): PendingResponseRequest | undefined {
    let request: MutableRequest | undefined;
    if (this.#inFlight?.clientRequestId === clientRequestId) {
      request = this.#inFlight;
      this.#inFlight = undefined;
    } else if (this.#outOfBand.has(clientRequestId)) {
      request = this.#outOfBand.get(clientRequestId);
      this.#outOfBand.delete(clientRequestId);
    }
    this.#abandoned.delete(clientRequestId);
    this.#pump();
    return request;
  }

  /**
   * The session stops waiting for request `clientRequestId` (a timeout, an abandoned reply). A queued
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
      this.#abandoned.add(clientRequestId);
    } else if (this.#outOfBand.delete(clientRequestId)) {
      this.#abandoned.add(clientRequestId);
    }
    this.#pump();
  }

  /** A function call of `responseId` (if the provider gave one) started running. */
  toolCallStarted(callId: string, responseId: string | undefined): void {
    this.#toolCalls.started(callId, responseId);
  }

  /** A call's output has been sent (or the call ended without one); may request the follow-up. */
  toolCallFinished(callId: string): void {
    if (this.#toolCalls.finished(callId)) this.#followUp();
  }

  /** Forgets everything (the connection is gone); returns the requests that will never start. */
  reset(): PendingResponseRequest[] {
    const dropped = [...this.pendingRequests];
    this.#queue.length = 0;
    this.#inFlight = undefined;
    this.#outOfBand.clear();
    this.#activeResponseId = undefined;
    this.#abandoned.clear();
    this.#toolCalls.reset();
    return dropped;
  }

  #followUp(): void {
    if (this.#autoToolReply) return;
    if (this.#queue.some((r) => r.reason === 'tool_follow_up')) return;
    this.request({}, 'tool_follow_up');
  }

  #pump(): void {
    while (!this.busy && this.#queue.length > 0) {
      const next = this.#queue.shift()!;
      const error = this.#dispatch(next);
      if (error !== undefined) this.#hooks.failed({ ...next }, error);
    }
  }

  /** Sends `request`; returns what `send` threw (the request is then dropped), or `undefined`. */
  #dispatch(request: MutableRequest): unknown {
    request.state = 'sent';
    if (request.command.conversation === 'default') this.#inFlight = request;
    else this.#outOfBand.set(request.clientRequestId, request);
    try {
      this.#hooks.send(request.command);
      return undefined;
    } catch (error) {
      if (this.#inFlight === request) this.#inFlight = undefined;
      this.#outOfBand.delete(request.clientRequestId);
      return error ?? new ParleyError('send_failed', 'Sending the response request failed.');
    }
  }
}
