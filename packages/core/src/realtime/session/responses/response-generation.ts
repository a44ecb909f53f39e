import type { ToolChoice } from '../../../model.js';
import type { CreateResponseCommand, RealtimeEvent } from '../../seam.js';
import {
  ephemeralResponseStrategy,
  responseInstructionsStrategy,
  toolFollowUpStrategy,
} from '../capability-strategies.js';
import { FollowUpLimitError, ResponseRefusedError } from '../errors.js';
import type { ResolvedSessionOptions } from '../options.js';
import type { SessionState } from '../session-state.js';
import { EphemeralResponses } from './ephemeral-responses.js';
import { type PendingResponseRequest, ResponseCoordinator } from './response-coordinator.js';
import type { ResponseHandle } from './response-handle.js';
import { ResponseRequests } from './response-requests.js';
import type { StaleResponses } from './stale-responses.js';

type EventOf<T extends RealtimeEvent['type']> = Extract<RealtimeEvent, { type: T }>;

/** Options of {@link RealtimeSession.generateResponse}. */
export interface GenerateResponseOptions {
  /** Instructions for this response only. */
  instructions?: string;
  /** Tool choice for this response only. */
  toolChoice?: ToolChoice;
  /**
   * `false`: an ephemeral response, spoken without entering the conversation (neither the local history nor
   * the provider's context), with tools off. One at a time per session. Where the provider does not
   * declare `ephemeralResponse` it is an ordinary response, with a `warning` event. Default `true`.
   */
  addToHistory?: boolean;
}

/**
 * The session's requests for responses: the {@link ResponseCoordinator} that orders them, the handles and
 * response timeouts of those on the wire ({@link ResponseRequests}), and `generateResponse()`, ordinary or ephemeral
 * ({@link EphemeralResponses}: out of band, tools off, one in flight).
 *
 * A request queued behind a response that stalls is not lost: the stalled response is dropped (cancelled,
 * `response_stale`) before the request's response timeout runs out, which sends the request.
 */
export class ResponseGeneration<TContext> {
  readonly coordinator: ResponseCoordinator;
  readonly requests: ResponseRequests;
  readonly ephemeral: EphemeralResponses;
  readonly #state: SessionState<TContext>;
  readonly #options: ResolvedSessionOptions<TContext>;
  readonly #ephemeralStrategy: ReturnType<typeof ephemeralResponseStrategy>;
  /** Bounds how long a started response may go silent. */
  readonly stale: StaleResponses;
  readonly #timeoutMs: number;

  constructor(
    state: SessionState<TContext>,
    options: ResolvedSessionOptions<TContext>,
    stale: StaleResponses,
  ) {
    this.#state = state;
    this.#options = options;
    this.stale = stale;
    this.#timeoutMs = options.responseTimeoutMs;
    const { model, clock } = options;
    this.#ephemeralStrategy = ephemeralResponseStrategy(model.capabilities, model.provider);
    this.requests = new ResponseRequests(clock, options.responseTimeoutMs);
    this.ephemeral = new EphemeralResponses(clock);
    this.coordinator = new ResponseCoordinator({
      autoToolResponseGeneration: toolFollowUpStrategy(model.capabilities) === 'provider',
      createRequestId: () => this.requests.nextId(),
      send: (command) => this.#send(command),
      queued: (request) => this.#queued(request.clientRequestId),
      failed: (request, error) => this.#failed(request, error),
      followUpsStopped: (reason, inARow) =>
        this.#state.reportError('session', new FollowUpLimitError(reason, inARow)),
      clock,
      providerFollowUpTimeoutMs: options.responseTimeoutMs,
    });
  }

  /**
   * The provider started a response: the coordinator learns which request it answers (if any, and whether the
   * session gave up on that one), its stale watch begins, and the request's handle and ephemeral slot learn its id.
   */
  responseStarted(event: EventOf<'response_started'>): ReturnType<ResponseCoordinator['responseStarted']> {
    const started = this.coordinator.responseStarted(event);
    this.stale.begin(event.responseId);
    const id = event.clientRequestId;
    if (id !== undefined) {
      this.requests.started(id, event.responseId);
      this.ephemeral.started(id, event.responseId);
    }
    return started;
  }

  /**
   * A response ended (`wasStarted`: its start had been reported): its stale watch ends, and its request is
   * answered (started, if it was not reported so) and no longer timed; an ephemeral one frees its slot.
   */
  answered(event: EventOf<'response_done'>, wasStarted: boolean): void {
    const id = event.clientRequestId;
    this.stale.end(event.responseId);
    if (id !== undefined) {
      if (!wasStarted) this.requests.started(id, event.responseId);
      this.requests.stopTimeout(id);
    }
    this.ephemeral.ended(id, event.responseId);
  }

  /** After a response's truncations went out: the coordinator may request the next one; its handles are done. */
  responseDone(event: EventOf<'response_done'>): void {
    this.coordinator.responseDone(event);
    this.requests.responseDone(event.responseId, event.status);
  }

  /**
   * The provider refused a command. A refusal of a response request releases the queue, whether or not it names
   * the request; the request's handle fails with the returned error. Returns the request id the error concerns.
   */
  refused(event: EventOf<'error'>): { clientRequestId?: string; refusal?: ResponseRefusedError } {
    let id = event.clientRequestId;
    if (id === undefined && event.commandType !== 'createResponse') return {};
    const request = this.coordinator.requestRefused(id);
    id ??= request?.clientRequestId;
    if (id !== undefined) {
      this.requests.stopTimeout(id);
      this.ephemeral.ended(id);
    }
    if (!request) return id === undefined ? {} : { clientRequestId: id };
    const refusal = new ResponseRefusedError(event.code, event.message, request.clientRequestId);
    this.requests.fail(request.clientRequestId, refusal);
    return { clientRequestId: request.clientRequestId, refusal };
  }

  /**
   * An interruption that names no single response: the ephemeral response in flight is released (its request
   * abandoned when the provider has not started it yet); returns the responses being generated, to be stopped.
   */
  releaseInFlight(): string[] {
    const ephemeral = this.ephemeral.release();
    if (ephemeral && ephemeral.responseId === undefined) this.coordinator.abandon(ephemeral.clientRequestId);
    const generating: string[] = [];
    const active = this.coordinator.activeResponseId;
    if (active !== undefined) generating.push(active);
    if (ephemeral?.responseId !== undefined) generating.push(ephemeral.responseId);
    return generating;
  }

  /** See `RealtimeSession.generateResponse()`; the session is connected. */
  generate(options: GenerateResponseOptions): ResponseHandle {
    if (options.addToHistory === false) {
      const strategy = this.#ephemeralStrategy;
      if (strategy.outOfBand) return this.#generateEphemeral(options);
      this.#state.emit({ type: 'warning', ...strategy.warning });
    }
    const request = this.coordinator.request(
      {
        ...(options.instructions !== undefined && { instructions: options.instructions }),
        ...(options.toolChoice !== undefined && { toolChoice: options.toolChoice }),
      },
      'generate_response',
    );
    this.#instructionsWarning(options, request.clientRequestId);
    return this.requests.wait(request.clientRequestId);
  }

  /**
   * Per-response instructions of a conversation response on a provider that keeps them in the model's context: said,
   * never silently (an ephemeral response's stay out of the conversation anyway).
   */
  #instructionsWarning(options: GenerateResponseOptions, clientRequestId: string): void {
    if (options.instructions === undefined) return;
    const { model } = this.#options;
    const warning = responseInstructionsStrategy(model.capabilities, model.provider, clientRequestId);
    if (warning) this.#state.emit({ type: 'warning', ...warning });
  }

  #generateEphemeral(options: GenerateResponseOptions): ResponseHandle {
    const conflict = this.ephemeral.conflict();
    if (conflict) {
      const handle = this.requests.rejected(conflict);
      this.#state.reportError('session', conflict);
      return handle;
    }
    if (options.toolChoice !== undefined && options.toolChoice !== 'none') {
      this.#state.emit({
        type: 'warning',
        code: 'ephemeral_tools_off',
        message:
          'An ephemeral response runs with tools off (tool choice "none"); the toolChoice passed was ignored.',
      });
    }
    const request = this.coordinator.request(
      {
        ephemeral: true,
        tools: [],
        toolChoice: 'none',
        ...(options.instructions !== undefined && { instructions: options.instructions }),
      },
      'generate_response',
    );
    this.ephemeral.begin(request.clientRequestId);
    return this.requests.wait(request.clientRequestId);
  }

  /** Sends a response request; its response timeout runs from now unless it already ran while it was queued. */
  #send(command: CreateResponseCommand): void {
    this.#state.send(command, 'request a response');
    this.#startTimeout(command.clientRequestId);
  }

  /**
   * A request waits behind the active response: its response timeout starts, and the response, should it stall, is
   * dropped before that runs out (it is checked every third of the timeout), so the request still goes out.
   */
  #queued(id: string): void {
    this.#startTimeout(id);
    const active = this.coordinator.activeResponseId;
    if (active !== undefined) this.stale.blocking(active, id, Math.floor(this.#timeoutMs / 3));
  }

  /** The request has `responseTimeoutMs` from now to be started: queued behind a response or on the wire. */
  #startTimeout(id: string): void {
    this.requests.startTimeout(id, (error) => {
      this.coordinator.abandon(id);
      this.ephemeral.ended(id);
      this.requests.fail(id, error);
      this.#state.reportError('session', error, undefined, id);
    });
  }

  #failed(request: PendingResponseRequest, error: unknown): void {
    this.requests.stopTimeout(request.clientRequestId);
    this.requests.fail(request.clientRequestId, error);
    this.#state.reportError('session', error, undefined, request.clientRequestId);
  }
}
