import type { ToolChoice } from '../../../model.js';
import type { CreateResponseCommand } from '../../seam.js';
import {
  ephemeralResponseStrategy,
  responseInstructionsStrategy,
  toolFollowUpStrategy,
} from '../capability-strategies.js';
import { FollowUpLimitError } from '../errors.js';
import type { ResolvedSessionOptions } from '../options.js';
import type { SessionState } from '../session-state.js';
import { EphemeralResponses } from './ephemeral-responses.js';
import { type PendingResponseRequest, ResponseCoordinator } from './response-coordinator.js';
import type { ResponseHandle } from './response-handle.js';
import { ResponseRequests } from './response-requests.js';
import type { StaleResponses } from './stale-responses.js';

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
  readonly #stale: StaleResponses;
  readonly #timeoutMs: number;

  constructor(
    state: SessionState<TContext>,
    options: ResolvedSessionOptions<TContext>,
    stale: StaleResponses,
  ) {
    this.#state = state;
    this.#options = options;
    this.#stale = stale;
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
    if (active !== undefined) this.#stale.blocking(active, id, Math.floor(this.#timeoutMs / 3));
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
