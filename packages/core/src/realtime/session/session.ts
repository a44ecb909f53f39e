import { Agent } from '../../agent.js';
import { createRunContext, type RunContext } from '../../context.js';
import { ParleyError, UserError } from '../../errors.js';
import type { ToolChoice } from '../../model.js';
import { addUsage, type Usage } from '../../usage.js';
import type { RealtimeCapabilities } from '../capabilities.js';
import type { CreateResponseCommand, RealtimeCommand, RealtimeConnection, RealtimeEvent } from '../seam.js';
import { abortable } from './abortable.js';
import { type AgentSessionConfig, agentSessionConfig, initialSessionConfig } from './agent-config.js';
import { AgentSwitcher } from './agent-switch.js';
import { ApprovalBook, type PendingApproval } from './approvals.js';
import { type ContentDeliveryHost, deliverContent } from './content-delivery.js';
import { EphemeralReplies } from './ephemeral-replies.js';
import {
  RealtimeConnectError,
  ResponseRefusedError,
  SessionClosedError,
  SessionNotConnectedError,
} from './errors.js';
import { EventHub } from './event-hub.js';
import type {
  RealtimeErrorSource,
  RealtimeReconnectReason,
  RealtimeSessionEvent,
  RealtimeSessionEventOf,
  RealtimeSessionEventType,
  RealtimeSessionStatus,
} from './events.js';
import { RealtimeHistory } from './history.js';
import type { RealtimeHistoryItem } from './history-item.js';
import { HistoryMirror } from './history-mirror.js';
import { Interruptions, type InterruptSource } from './interruption.js';
import { type MessageContentEvent, MessagePlayout } from './message-playout.js';
import {
  COMMIT_AUDIO_OPTIONS,
  GENERATE_REPLY_OPTIONS,
  SEND_AUDIO_OPTIONS,
  SEND_MESSAGE_OPTIONS,
} from './method-options.js';
import {
  type RealtimeSessionOptions,
  type ResolvedSessionOptions,
  resolveSessionOptions,
} from './options.js';
import { type GuardrailTrip, OutputGuardrailMonitor } from './output-guardrail-monitor.js';
import { SessionPlayback } from './playback-control.js';
import { type OpenedConnection, Reconnector } from './reconnect.js';
import type { ReplyHandle } from './reply-handle.js';
import { ReplyRequests } from './reply-requests.js';
import { type PendingResponseRequest, ResponseCoordinator } from './response-coordinator.js';
import { ResponseTracker } from './response-tracker.js';
import { TaskSet } from './task-set.js';
import { type ToolCall, ToolExecutor } from './tool-executor.js';

/** Options of {@link RealtimeSession.generateReply}. */
export interface GenerateReplyOptions {
  /** Instructions for this response only. */
  instructions?: string;
  /** Tool choice for this response only. */
  toolChoice?: ToolChoice;
  /**
   * `false`: an ephemeral reply, spoken without entering the conversation (neither the local history nor
   * the provider's context), with tools off. One at a time per session. Where the provider does not
   * declare `ephemeralResponse` it is an ordinary reply, with a `warning` event. Default `true`.
   */
  addToHistory?: boolean;
}

const GUARDRAIL_CORRECTION = (name: string) =>
  `Your previous response was stopped by the "${name}" output guardrail. Do not repeat it; answer in a way that respects the guardrail.`;

/**
 * A live voice conversation with an agent over a {@link RealtimeModel}. The session owns what it acquires
 * (connection, listener, tool and guardrail tasks, pending approvals, event iterators) and releases all of
 * it on every exit path; see docs/realtime.md.
 *
 * ```ts
 * await using session = new RealtimeSession(agent, { model });
 * session.on('audio', (e) => speaker.play(e.data));
 * await session.connect();
 * session.sendMessage('Hello!');
 * ```
 */
export class RealtimeSession<TContext = unknown>
  implements AsyncIterable<RealtimeSessionEvent<TContext>>, AsyncDisposable
{
  readonly #options: ResolvedSessionOptions<TContext>;
  readonly #runContext: RunContext<TContext>;
  readonly #hub: EventHub<RealtimeSessionEvent<TContext>>;
  readonly #history: RealtimeHistory;
  readonly #tasks = new TaskSet();
  readonly #approvals = new ApprovalBook<TContext>();
  readonly #executor: ToolExecutor<TContext>;
  readonly #guardrails: OutputGuardrailMonitor<TContext>;
  readonly #coordinator: ResponseCoordinator;
  readonly #responses: ResponseTracker<TContext>;
  readonly #mirror: HistoryMirror<TContext>;
  readonly #playout = new MessagePlayout();
  readonly #interruptions: Interruptions<TContext>;
  readonly #ephemeral: EphemeralReplies;
  readonly #playback: SessionPlayback;
  readonly #delivery: ContentDeliveryHost<TContext>;
  readonly #reconnect: Reconnector<TContext>;
  readonly #switcher: AgentSwitcher<TContext>;
  readonly #requests: ReplyRequests;

  #agent: Agent<TContext>;
  /** What the provider was last configured with for the active agent. */
  #agentConfig: AgentSessionConfig | undefined;
  #status: RealtimeSessionStatus = 'idle';
  #connection: RealtimeConnection | undefined;
  #unsubscribe: (() => void) | undefined;
  /** Aborted when the current connection is released: cancels work bound to it. */
  #lifetime = new AbortController();
  #connectAbort: AbortController | undefined;
  #connecting: Promise<void> | undefined;
  #releasing: Promise<void> = Promise.resolve();
  #closing: Promise<void> | undefined;

  /**
   * Creates a session for `agent`. Options are validated here: a bad option throws a `UserError` with
   * code `invalid_session_options` before anything connects.
   */
  constructor(agent: Agent<TContext>, options: RealtimeSessionOptions<TContext>) {
    this.#options = resolveSessionOptions(agent, options);
    this.#agent = agent;
    this.#runContext = createRunContext(this.#options.context);
    this.#requests = new ReplyRequests(this.#options.clock, this.#options.replyTimeoutMs);
    this.#hub = new EventHub((error, event) => {
      if (event.type === 'error') return;
      this.#reportError('listener', error, 'listener_failed');
    });
    this.#history = new RealtimeHistory((event) => this.#emit(event));
    this.#responses = new ResponseTracker(() => this.#agent);
    this.#interruptions = new Interruptions<TContext>({
      capabilities: this.capabilities,
      provider: this.#options.model.provider,
      responses: this.#responses,
      playout: this.#playout,
      tracker: this.#options.playbackTracker,
      activeResponseId: () => this.#coordinator.activeResponseId,
      providerCancelsOnSpeech: () =>
        this.#turnDetectionActive() && this.#options.config.turnDetection?.interruptResponse !== false,
      send: (command) => this.#send(command),
      emit: (event) => this.#emit(event),
      applyOutcome: (itemId, outcome) => this.#mirror.messageOutcome(itemId, outcome),
      hasText: (itemId) => this.#mirror.hasText(itemId),
    });
    this.#mirror = new HistoryMirror(this.#history, this.#responses, (id) =>
      this.#interruptions.isStopped(id),
    );
    this.#ephemeral = new EphemeralReplies(this.#options.clock);
    this.#playback = new SessionPlayback(this.#options.playbackTracker, () => {
      if (this.#isConnected() && !this.#closing) this.#interrupt('playback');
    });
    this.#coordinator = new ResponseCoordinator({
      autoToolReplyGeneration: this.capabilities.autoToolReplyGeneration,
      createRequestId: () => this.#requests.nextId(),
      send: (command) => this.#sendResponseRequest(command),
      failed: (request, error) => this.#requestFailed(request, error),
    });
    this.#executor = new ToolExecutor<TContext>(
      {
        runContext: this.#runContext,
        clock: this.#options.clock,
        toolTimeoutMs: this.#options.toolTimeoutMs,
        tasks: this.#tasks,
        approvals: this.#approvals,
        emit: (event) => this.#emit(event),
        deliver: (call, output, signal) => this.#deliverToolOutput(call, output, signal),
        handoff: (handoff, call) =>
          this.#switcher.switch(
            handoff.agent as Agent<TContext>,
            'tool_call',
            call.callId,
            handoff.onHandoff,
          ),
        reportError: (source, error) => this.#reportError(source, error),
      },
      { sequential: !this.#options.asyncToolCalls },
    );
    this.#guardrails = new OutputGuardrailMonitor<TContext>({
      runContext: this.#runContext,
      tasks: this.#tasks,
      debounceChars: this.#options.guardrailDebounceChars,
      guardrailsFor: (a) => [...this.#options.outputGuardrails, ...a.outputGuardrails],
      tripped: (trip) => this.#onGuardrailTripped(trip),
      failed: (error) => this.#reportError('guardrail', error, 'guardrail_failed'),
    });
    this.#delivery = {
      playout: this.#playout,
      tracker: this.#options.playbackTracker,
      mirror: this.#mirror,
      guardrails: this.#guardrails,
      responses: this.#responses,
      isStopped: (id) => this.#interruptions.isStopped(id),
      observed: (type) => this.#hub.observed(type),
      emit: (event) => this.#emit(event),
    };
    this.#switcher = new AgentSwitcher<TContext>({
      runContext: this.#runContext,
      capabilities: this.capabilities,
      provider: this.#options.model.provider,
      requireLive: (action) => this.#live(action),
      lifetime: () => this.#lifetime.signal,
      agent: () => this.#agent,
      agentConfig: () => this.#agentConfig,
      commit: (agent, config) => {
        this.#agent = agent;
        this.#agentConfig = config;
      },
      send: (command) => this.#send(command),
      emit: (event) => this.#emit(event),
      reportError: (error) => this.#reportError('session', error, 'agent_switch_failed'),
    });
    this.#reconnect = new Reconnector<TContext>({
      clock: this.#options.clock,
      options: this.#options.reconnect,
      autoToolReplyGeneration: this.capabilities.autoToolReplyGeneration,
      history: this.#history,
      mirror: this.#mirror,
      coordinator: this.#coordinator,
      responses: this.#responses,
      status: () => this.#status,
      setStatus: (status) => {
        this.#status = status;
      },
      closing: () => this.#closing !== undefined,
      currentAgent: () => this.#agent,
      liveConnection: () => this.#connection,
      localWorkIdle: () =>
        this.#tasks.size === 0 &&
        this.#approvals.pending.length === 0 &&
        this.#requests.waiting === 0 &&
        this.#ephemeral.inFlight === undefined,
      release: (reason) => this.#release(reason),
      open: (signal) => this.#open(signal),
      adopt: (opened) => this.#adopt(opened),
      send: (command) => this.#send(command),
      emit: (event) => this.#emit(event),
      reportError: (error) => this.#reportError('session', error),
    });
  }

  // ── state ──────────────────────────────────────────────────────────────────────────────────

  /**
   * `idle` → `connecting` → `connected` (→ `reconnecting` → `connected` …, or → `disconnected` →
   * `connecting` …) → `closed`.
   */
  get status(): RealtimeSessionStatus {
    return this.#status;
  }

  /** The active agent. */
  get currentAgent(): Agent<TContext> {
    return this.#agent;
  }

  /** What the provider declares; the session chooses its strategies from it. */
  get capabilities(): RealtimeCapabilities {
    return this.#options.model.capabilities;
  }

  /** The conversation so far: frozen snapshots, in order. */
  get history(): readonly RealtimeHistoryItem[] {
    return this.#history.items;
  }

  /** Tool calls waiting for `approve()` or `reject()`. */
  get pendingApprovals(): readonly PendingApproval<TContext>[] {
    return this.#approvals.pending;
  }

  /** Token usage reported by the provider, summed over the session's responses. */
  get usage(): Readonly<Usage> {
    return { ...this.#runContext.usage };
  }

  /**
   * What the listener heard: apps that play the audio themselves report progress here
   * (`played(itemId, ms)`, `finished(itemId)`, `interrupted()`); see {@link SessionPlayback}.
   */
  get playback(): SessionPlayback {
    return this.#playback;
  }

  /** The context object tools and guardrails receive. */
  get context(): TContext {
    return this.#runContext.context;
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────

  /** Calls `listener` for every event of `type`; returns the function that unsubscribes it. */
  on<T extends RealtimeSessionEventType>(
    type: T,
    listener: (event: RealtimeSessionEventOf<T, TContext>) => void,
  ): () => void {
    return this.#hub.on(type, listener as (event: RealtimeSessionEvent<TContext>) => void);
  }

  /**
   * Every event from now on, in order. Iterators end after `close()` (once their buffered events are
   * consumed); breaking out of the loop unsubscribes.
   */
  [Symbol.asyncIterator](): AsyncIterator<RealtimeSessionEvent<TContext>> {
    return this.#hub.iterate();
  }

  // ── lifecycle ──────────────────────────────────────────────────────────────────────────────

  /**
   * Connects to the provider with the agent's instructions and tools. If it fails, whatever it had
   * acquired is released, it rejects with `RealtimeConnectError`, and `connect()` may be called again.
   * Also reconnects after a `disconnected` status. Concurrent calls share one attempt. While the session
   * is `reconnecting` by itself, it settles with that reconnection.
   */
  connect(): Promise<void> {
    if (this.#closing || this.#status === 'closed') return Promise.reject(new SessionClosedError());
    if (this.#status === 'connected') return Promise.resolve();
    if (this.#status === 'reconnecting') return this.#reconnect.pending ?? Promise.resolve();
    if (!this.#connecting) {
      this.#connecting = this.#doConnect().finally(() => {
        this.#connecting = undefined;
      });
    }
    return this.#connecting;
  }

  /**
   * Closes the session: cancels and awaits tool and guardrail tasks (a tool finishing later sends
   * nothing), clears pending approvals, rejects waiting replies, closes the connection once, and ends
   * every event iterator. Idempotent and safe to call concurrently or from any task.
   */
  close(): Promise<void> {
    if (!this.#closing) this.#closing = this.#doClose();
    return this.#closing;
  }

  /** `await using session = new RealtimeSession(...)` closes it at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #doConnect(): Promise<void> {
    await this.#releasing;
    if (this.#closing) throw new SessionClosedError();
    const previousStatus = this.#status;
    const controller = new AbortController();
    this.#connectAbort = controller;
    const { model } = this.#options;
    this.#status = 'connecting';
    this.#emit({ type: 'connection_status', status: 'connecting' });
    let opened: OpenedConnection<TContext> | undefined;
    try {
      opened = await this.#open(controller.signal);
      if (controller.signal.aborted) throw controller.signal.reason;
      this.#adopt(opened);
      this.#connectAbort = undefined;
      for (const warning of opened.warnings) this.#emit({ type: 'warning', ...warning });
      this.#emit({ type: 'connection_status', status: 'connected' });
      this.#emit({ type: 'agent_start', agent: this.#agent });
    } catch (error) {
      if (opened && this.#connection !== opened.connection) await opened.connection.close().catch(() => {});
      this.#connectAbort = undefined;
      if (controller.signal.aborted || this.#closing) throw new SessionClosedError();
      this.#status = previousStatus === 'disconnected' ? 'disconnected' : 'idle';
      this.#emit({ type: 'connection_status', status: 'disconnected', reason: 'connect_failed' });
      if (error instanceof RealtimeConnectError) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      throw new RealtimeConnectError(`Could not connect to "${model.provider}": ${detail}`, { cause: error });
    }
  }

  /** Opens a connection configured for the current agent; the live connection (if any) is left alone. */
  async #open(signal: AbortSignal): Promise<OpenedConnection<TContext>> {
    const { model } = this.#options;
    const agent = this.#agent;
    const agentConfig = await abortable(agentSessionConfig(agent, this.#runContext), signal);
    const { config, warnings } = initialSessionConfig(
      agentConfig,
      this.#options.config,
      this.capabilities,
      model.provider,
    );
    const pending = model.connect({ config, signal });
    const connection = await abortable(pending, signal).catch((error) => {
      if (signal.aborted) {
        // A provider that ignores the signal may still hand over a connection: release it then.
        pending.then((late) => late.close()).catch(() => {});
      }
      throw error;
    });
    return { connection, agent, agentConfig, warnings };
  }

  /** Makes `opened` the live connection; throws `RealtimeConnectError` (unsubscribed again) if it already closed. */
  #adopt(opened: OpenedConnection<TContext>): void {
    const live = opened.connection;
    const unsubscribe = live.onEvent((event) => this.#onProviderEvent(live, event));
    if (live.status !== 'open') {
      unsubscribe();
      throw new RealtimeConnectError(
        `The connection to "${this.#options.model.provider}" closed while the session was starting. Call connect() again.`,
      );
    }
    this.#connection = live;
    this.#unsubscribe = unsubscribe;
    this.#agentConfig = opened.agentConfig;
    this.#lifetime = new AbortController();
    this.#status = 'connected';
    this.#reconnect.connected(live);
  }

  async #doClose(): Promise<void> {
    await this.#reconnect.stop();
    this.#connectAbort?.abort(new SessionClosedError());
    await this.#connecting?.catch(() => {});
    const agentWasActive = this.#status === 'connected' || this.#status === 'reconnecting';
    this.#status = 'closed';
    await this.#release(new SessionClosedError());
    await this.#switcher.idle;
    if (agentWasActive) this.#emit({ type: 'agent_end', agent: this.#agent, reason: 'close' });
    this.#emit({ type: 'connection_status', status: 'closed' });
    this.#hub.end();
  }

  /**
   * Releases the current connection and everything bound to it, once: listener, waiting replies,
   * approvals, tool and guardrail tasks (cancelled and awaited), then the connection itself.
   */
  #release(reason: ParleyError): Promise<void> {
    const connection = this.#connection;
    const unsubscribe = this.#unsubscribe;
    this.#connection = undefined;
    this.#unsubscribe = undefined;
    this.#lifetime.abort(reason);
    unsubscribe?.();
    this.#reconnect.released();
    this.#requests.stopTimeouts();
    this.#coordinator.reset();
    this.#ephemeral.reset();
    this.#interruptions.reset();
    this.#playout.reset();
    this.#options.playbackTracker.reset();
    this.#requests.failAll(reason);
    this.#approvals.clear();
    const previous = this.#releasing;
    this.#releasing = (async () => {
      await previous;
      await this.#tasks.cancelAll(reason);
      this.#executor.reset();
      this.#guardrails.reset();
      this.#responses.clear();
      if (connection) {
        await connection.close().catch((error: unknown) => {
          this.#reportError('session', error, 'connection_close_failed');
        });
      }
    })();
    return this.#releasing;
  }

  /** The live connection ended; `reconnect` says why, when the session may reconnect by itself. */
  #onDisconnected(reason: string, reconnect?: Exclude<RealtimeReconnectReason, 'recycle'>): void {
    if (this.#status !== 'connected') return;
    if (reconnect && this.#reconnect.connectionLost(reconnect, reason)) return;
    this.#status = 'disconnected';
    void this.#reconnect.disconnected(reason);
    this.#emit({ type: 'connection_status', status: 'disconnected', reason });
    this.#emit({ type: 'agent_end', agent: this.#agent, reason: 'disconnect' });
  }

  // ── app → model ────────────────────────────────────────────────────────────────────────────

  /** Adds a user text message and (unless `respond: false`) asks for a reply. */
  sendMessage(text: string, options: { respond?: boolean } = {}): void {
    if (typeof text !== 'string' || text.length === 0) {
      throw new UserError('sendMessage(text) needs a non-empty string.');
    }
    SEND_MESSAGE_OPTIONS.check(options);
    const connection = this.#live('send a message');
    connection.send({
      type: 'createItem',
      item: { type: 'message', role: 'user', content: [{ type: 'text', text }] },
    });
    if (options.respond !== false) this.#coordinator.request({}, 'user_input');
  }

  /**
   * Appends user audio (PCM16, 24 kHz, mono) to the provider's input buffer; `commit: true` also
   * calls {@link commitAudio}.
   */
  sendAudio(pcm: Uint8Array, options: { commit?: boolean } = {}): void {
    if (!(pcm instanceof Uint8Array) || pcm.byteLength % 2 !== 0) {
      throw new UserError('sendAudio(pcm) needs a Uint8Array of PCM16 samples (an even number of bytes).');
    }
    SEND_AUDIO_OPTIONS.check(options);
    this.#live('send audio').send({ type: 'appendInputAudio', audio: pcm });
    if (options.commit) this.commitAudio();
  }

  /**
   * Ends the user's audio turn. With turn detection off (push-to-talk) it also asks for a reply; with
   * turn detection on the provider decides. `respond` overrides that.
   */
  commitAudio(options: { respond?: boolean } = {}): void {
    COMMIT_AUDIO_OPTIONS.check(options);
    this.#live('commit audio').send({ type: 'commitInputAudio' });
    const respond = options.respond ?? !this.#turnDetectionActive();
    if (respond) this.#coordinator.request({}, 'user_input');
  }

  /**
   * Stops what the user is hearing: every response still being generated or still playing (an in-flight
   * ephemeral reply included) is cancelled by its id, `audio_interrupted` is emitted once for it (the
   * app's signal to stop local playback), and its messages are cut where the listener stopped hearing
   * them (see docs/realtime.md, "Interruptions"). A second call for the same response does nothing.
   */
  interrupt(): void {
    this.#live('interrupt');
    this.#interrupt('app');
  }

  /**
   * Asks the model to respond now. The request waits while another conversation response is active.
   * The returned handle resolves with the response id once the provider started it; see {@link ReplyHandle}.
   */
  generateReply(options: GenerateReplyOptions = {}): ReplyHandle {
    GENERATE_REPLY_OPTIONS.check(options);
    if (options.instructions !== undefined && typeof options.instructions !== 'string') {
      throw new UserError('generateReply({ instructions }) must be a string.');
    }
    if (options.addToHistory !== undefined && typeof options.addToHistory !== 'boolean') {
      throw new UserError('generateReply({ addToHistory }) must be true or false.');
    }
    this.#live('generate a reply');
    if (options.addToHistory === false) {
      if (this.capabilities.ephemeralResponse) return this.#generateEphemeralReply(options);
      this.#emit({
        type: 'warning',
        code: 'ephemeral_response_unsupported',
        message: `Provider "${this.#options.model.provider}" does not declare ephemeralResponse: this reply is an ordinary one and enters the conversation (history and the model's context).`,
      });
    }
    const request = this.#coordinator.request(
      {
        ...(options.instructions !== undefined && { instructions: options.instructions }),
        ...(options.toolChoice !== undefined && { toolChoice: options.toolChoice }),
      },
      'reply',
    );
    return this.#requests.wait(request.clientRequestId);
  }

  #generateEphemeralReply(options: GenerateReplyOptions): ReplyHandle {
    const conflict = this.#ephemeral.conflict();
    if (conflict) {
      const handle = this.#requests.rejected(conflict);
      this.#reportError('session', conflict);
      return handle;
    }
    if (options.toolChoice !== undefined && options.toolChoice !== 'none') {
      this.#emit({
        type: 'warning',
        code: 'ephemeral_tools_off',
        message:
          'An ephemeral reply runs with tools off (tool choice "none"); the toolChoice passed was ignored.',
      });
    }
    const request = this.#coordinator.request(
      {
        conversation: 'none',
        tools: [],
        toolChoice: 'none',
        ...(options.instructions !== undefined && { instructions: options.instructions }),
      },
      'reply',
    );
    this.#ephemeral.begin(request.clientRequestId);
    return this.#requests.wait(request.clientRequestId);
  }

  /**
   * Makes `agent` the active agent: the same path a handoff takes (same `updateSession` command, same
   * `agent_end` / `agent_start` / `handoff` events, same tool resolution). Before `connect()` it only
   * replaces the agent. If applying it fails, the previous agent stays active, an `error` event is
   * emitted and the promise rejects.
   */
  async updateAgent(agent: Agent<TContext>): Promise<void> {
    if (!(agent instanceof Agent)) throw new UserError('updateAgent(agent) needs an Agent.');
    if (this.#closing || this.#status === 'closed') throw new SessionClosedError();
    if (this.#status !== 'connected') await (this.#connecting ?? this.#reconnect.pending)?.catch(() => {});
    if (this.#closing) throw new SessionClosedError();
    if (!this.#isConnected()) {
      this.#agent = agent;
      return;
    }
    await this.#switcher.switch(agent, 'update_agent');
  }

  /** Approves a call announced by `tool_approval_requested`; `always` approves this tool from now on. */
  approve(callId: string, options: { always?: boolean } = {}): void {
    if (this.#closing || this.#status === 'closed') throw new SessionClosedError();
    this.#approvals.decide(callId, { approved: true }, options.always ?? false);
  }

  /**
   * Rejects a call announced by `tool_approval_requested`: the model gets `message` (or a default) as
   * the call's output, and the session goes on. `always` rejects this tool from now on.
   */
  reject(callId: string, options: { message?: string; always?: boolean } = {}): void {
    if (this.#closing || this.#status === 'closed') throw new SessionClosedError();
    const decision =
      options.message !== undefined
        ? { approved: false as const, message: options.message }
        : { approved: false as const };
    this.#approvals.decide(callId, decision, options.always ?? false);
  }

  // ── model → app ────────────────────────────────────────────────────────────────────────────

  #onProviderEvent(connection: RealtimeConnection, event: RealtimeEvent): void {
    if (connection !== this.#connection || this.#status !== 'connected' || this.#closing) return;
    // The per-delta path first: the reconnect observer has nothing to do with content deltas.
    const type = event.type;
    if (type === 'audio_delta' || type === 'transcript_delta' || type === 'text_delta') {
      this.#playout.admit(event, this.#deliver);
      return;
    }
    if (this.#reconnect.observe(event)) return;
    switch (type) {
      case 'connection_status':
        if (event.status === 'disconnected') {
          this.#onDisconnected(event.reason ?? 'provider_disconnected', 'connection_lost');
        }
        return;
      case 'response_started':
        this.#onResponseStarted(event);
        return;
      case 'response_done':
        this.#onResponseDone(event);
        return;
      case 'message_started':
        this.#playout.messageStarted(event.responseId, event.itemId);
        this.#mirror.messageStarted(event);
        return;
      case 'audio_done':
      case 'transcript_done':
      case 'message_done':
        this.#playout.admit(event, this.#deliver);
        return;
      case 'function_call':
        this.#onFunctionCall(event);
        return;
      case 'input_speech_started':
        this.#interrupt('speech');
        return;
      case 'input_speech_stopped':
        return;
      case 'input_audio_committed':
        this.#mirror.inputCommitted(event);
        return;
      case 'input_transcription':
        this.#mirror.inputTranscription(event);
        return;
      case 'item_added':
        this.#mirror.itemAdded(event);
        return;
      case 'item_deleted':
        this.#mirror.itemDeleted(event);
        return;
      case 'item_truncated':
        this.#mirror.itemTruncated(event);
        return;
      case 'error':
        this.#onProviderError(event);
        return;
    }
  }

  #onResponseStarted(event: RealtimeEvent & { type: 'response_started' }): void {
    const { abandoned } = this.#coordinator.responseStarted(event);
    const info = this.#responses.track(event.responseId, event.conversation);
    const id = event.clientRequestId;
    if (id !== undefined) {
      this.#requests.started(id, event.responseId);
      this.#ephemeral.started(id, event.responseId);
    }
    // The session gave up on it (a timeout, an interrupted ephemeral reply): it must not speak now.
    if (abandoned) this.#interruptions.abandoned(event.responseId);
    // Ephemeral replies carry the app's own words and never enter history: no guardrails, no trace.
    if (event.conversation === 'default') this.#guardrails.begin(event.responseId, info.agent);
    this.#emit({
      type: 'response_started',
      responseId: event.responseId,
      conversation: event.conversation,
      agent: info.agent,
      ...(event.clientRequestId !== undefined && { clientRequestId: event.clientRequestId }),
    });
  }

  #onResponseDone(event: RealtimeEvent & { type: 'response_done' }): void {
    this.#playout.responseDone(event.responseId, this.#deliver);
    const info = this.#responses.track(event.responseId, event.conversation);
    info.done = true;
    if (event.status !== 'completed') info.interrupted = true;
    if (event.usage) addUsage(this.#runContext.usage, { requests: 1, ...event.usage });
    if (event.clientRequestId !== undefined) this.#requests.stopTimeout(event.clientRequestId);
    this.#ephemeral.ended(event.clientRequestId, event.responseId);
    // Truncations go out before the coordinator may request the next response.
    if (this.#interruptions.isStopped(event.responseId)) this.#interruptions.responseDone(event.responseId);
    else if (info.interrupted) this.#mirror.responseInterrupted(event.responseId);
    this.#coordinator.responseDone(event);
    this.#guardrails.end(event.responseId);
    this.#requests.responseDone(event.responseId, event.status);
    this.#emit({
      type: 'response_done',
      responseId: event.responseId,
      status: event.status,
      conversation: event.conversation,
      ...(event.reason !== undefined && { reason: event.reason }),
    });
  }

  #onFunctionCall(event: RealtimeEvent & { type: 'function_call' }): void {
    const response = event.responseId !== undefined ? this.#responses.get(event.responseId) : undefined;
    if (response?.conversation === 'none') {
      // Ephemeral replies run with tools off; a call from one is neither run nor remembered.
      this.#emit({
        type: 'warning',
        code: 'out_of_band_tool_call_ignored',
        message: `The provider called tool "${event.name}" from out-of-band response ${event.responseId}, which runs with tools off; the call was ignored.`,
      });
      return;
    }
    const agent = response?.agent ?? this.#agent;
    this.#mirror.functionCall(event, agent);
    this.#coordinator.toolCallStarted(event.callId, event.responseId);
    this.#executor.dispatch({
      callId: event.callId,
      name: event.name,
      arguments: event.arguments,
      agent,
      ...(event.responseId !== undefined && { responseId: event.responseId }),
    });
  }

  #onProviderError(event: RealtimeEvent & { type: 'error' }): void {
    let refusal: ResponseRefusedError | undefined;
    if (event.clientRequestId !== undefined) {
      const id = event.clientRequestId;
      this.#requests.stopTimeout(id);
      const request = this.#coordinator.requestRefused(id);
      this.#ephemeral.ended(id);
      if (request) {
        refusal = new ResponseRefusedError(event.code, event.message, id);
        this.#requests.fail(id, refusal);
      }
    }
    this.#emit({
      type: 'error',
      source: 'provider',
      code: event.code,
      message: event.message,
      ...(refusal && { error: refusal }),
      ...(event.clientRequestId !== undefined && { clientRequestId: event.clientRequestId }),
      ...(event.fatal !== undefined && { fatal: event.fatal }),
    });
    if (event.fatal) {
      const expired = event.code === 'session_expired' ? 'session_expired' : undefined;
      this.#onDisconnected(`fatal provider error: ${event.code}`, expired);
    }
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────

  #isConnected(): boolean {
    return this.#status === 'connected';
  }

  #live(action: string): RealtimeConnection {
    if (this.#closing || this.#status === 'closed') throw new SessionClosedError();
    if (this.#status !== 'connected' || !this.#connection) throw new SessionNotConnectedError(action);
    return this.#connection;
  }

  #send(command: RealtimeCommand): void {
    this.#live(`send ${command.type}`).send(command);
  }

  #emit(event: RealtimeSessionEvent<TContext>): void {
    this.#hub.emit(event);
  }

  #reportError(source: RealtimeErrorSource, error: unknown, fallbackCode = 'unexpected_error'): void {
    const code = error instanceof ParleyError ? error.code : fallbackCode;
    const message = error instanceof Error ? error.message : String(error);
    this.#emit({ type: 'error', source, code, message, error });
  }

  #turnDetectionActive(): boolean {
    return this.capabilities.turnDetection && this.#options.config.turnDetection !== null;
  }

  readonly #deliver = (event: MessageContentEvent, responseId: string, itemId: string): void =>
    deliverContent(this.#delivery, event, responseId, itemId);

  /**
   * The one interruption path (app, user speech, the app's playback, a guardrail), see
   * {@link Interruptions}. Without `responseId` it also stops an in-flight ephemeral reply: by its id,
   * or, when the provider has not started it yet, by cancelling it on arrival.
   */
  #interrupt(source: InterruptSource, responseId?: string): void {
    const also: string[] = [];
    if (responseId === undefined) {
      const ephemeral = this.#ephemeral.release();
      if (ephemeral?.responseId !== undefined) also.push(ephemeral.responseId);
      else if (ephemeral) this.#coordinator.abandon(ephemeral.clientRequestId);
    }
    this.#interruptions.interrupt(source, { ...(responseId !== undefined && { responseId }), also });
  }

  #sendResponseRequest(command: CreateResponseCommand): void {
    this.#live('request a response').send(command);
    const id = command.clientRequestId;
    this.#requests.startTimeout(id, (error) => {
      this.#coordinator.abandon(id);
      this.#ephemeral.ended(id);
      this.#requests.fail(id, error);
      this.#reportError('session', error);
    });
  }

  #requestFailed(request: PendingResponseRequest, error: unknown): void {
    this.#requests.fail(request.clientRequestId, error);
    this.#reportError('session', error);
  }

  #deliverToolOutput(call: ToolCall<TContext>, output: string, signal: AbortSignal): boolean {
    if (signal.aborted || this.#closing || this.#status !== 'connected') return false;
    this.#send({ type: 'sendToolOutput', callId: call.callId, output });
    this.#mirror.toolOutput(call.callId, output);
    this.#coordinator.toolCallFinished(call.callId);
    return true;
  }

  #onGuardrailTripped(trip: GuardrailTrip<TContext>): void {
    if (this.#status !== 'connected') return;
    this.#emit({
      type: 'guardrail_tripped',
      responseId: trip.responseId,
      agent: trip.agent,
      guardrailName: trip.guardrailName,
      outputInfo: trip.outputInfo,
      text: trip.text,
    });
    try {
      // Guardrails watch default-conversation responses only (see response_started), so a correction always fits.
      this.#interrupt('guardrail', trip.responseId);
      this.#send({
        type: 'createItem',
        item: {
          type: 'message',
          role: 'system',
          content: [{ type: 'text', text: GUARDRAIL_CORRECTION(trip.guardrailName) }],
        },
      });
      this.#coordinator.request({}, 'guardrail');
    } catch (error) {
      this.#reportError('guardrail', error);
    }
  }
}
