import { Agent } from '../../agent.js';
import { brand } from '../../brand.js';
import { UserError } from '../../errors.js';
import { errorText } from '../../logger.js';
import { copyUsage, type Usage } from '../../usage.js';
import type { RealtimeAudioFormat } from '../audio.js';
import { isDtmfDigit } from '../dtmf.js';
import type {
  ContextAppendKind,
  DtmfDigit,
  RealtimeCapabilities,
  RealtimeModel,
  RealtimeSessionConfig,
} from '../seam.js';
import { checkRealtimeHostedTools } from './agents/realtime-hosted-tools.js';
import { requireContextAppends, requireResponseRequests } from './capability-strategies.js';
import { RealtimeConnectError } from './errors.js';
import type {
  RealtimeSessionEvent,
  RealtimeSessionEventOf,
  RealtimeSessionEventType,
  RealtimeSessionStatus,
} from './events/events.js';
import type { RealtimeHistoryItem } from './history/history-item.js';
import {
  APPEND_CONTEXT_OPTIONS,
  COMMIT_AUDIO_OPTIONS,
  GENERATE_REPLY_OPTIONS,
  SEND_AUDIO_OPTIONS,
  SEND_MESSAGE_OPTIONS,
} from './method-options.js';
import { type RealtimeSessionOptions, resolveSessionOptions } from './options.js';
import type { SessionPlayback } from './playback/playback-control.js';
import type { GenerateResponseOptions } from './responses/response-generation.js';
import type { ResponseHandle } from './responses/response-handle.js';
import { assembleSession, type SessionParts } from './session-assembly.js';
import type { PendingApproval } from './tools/approvals.js';

export type { GenerateResponseOptions } from './responses/response-generation.js';

/** The audio formats of the app's side of a session: what `sendAudio` takes and what `audio` events carry. */
export interface SessionAudioFormats {
  readonly input: RealtimeAudioFormat;
  readonly output: RealtimeAudioFormat;
}

/**
 * A live voice conversation with an agent over a {@link RealtimeModel}. The session owns what it acquires
 * (connection, listener, tool and guardrail tasks, pending approvals, event iterators) and releases all of
 * it on every exit path; see docs/realtime.md. This class is the façade: the rules live in the units it
 * wires (docs/development.md maps them).
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
  static {
    brand(RealtimeSession, 'core.RealtimeSession');
  }

  readonly #parts: SessionParts<TContext>;
  readonly #audioFormats: SessionAudioFormats;

  /**
   * Creates a session for `agent`. Options are validated here: a bad option throws a `UserError` with
   * code `invalid_session_options` before anything connects.
   */
  constructor(agent: Agent<TContext>, options: RealtimeSessionOptions<TContext>) {
    this.#parts = assembleSession(agent, resolveSessionOptions(agent, options));
    const { config } = this.#parts.options;
    this.#audioFormats = Object.freeze({
      input: config.inputAudioFormat ?? 'pcm16',
      output: config.outputAudioFormat ?? 'pcm16',
    });
  }

  // ── state ──────────────────────────────────────────────────────────────────────────────────

  /**
   * `idle` → `connecting` → `connected` (→ `reconnecting` → `connected` …, or → `disconnected` →
   * `connecting` …) → `closed`.
   */
  get status(): RealtimeSessionStatus {
    return this.#parts.state.status;
  }

  /** The active agent. */
  get currentAgent(): Agent<TContext> {
    return this.#parts.state.agent;
  }

  /** What the provider declares; the session chooses its strategies from it. */
  get capabilities(): RealtimeCapabilities {
    return this.#parts.options.model.capabilities;
  }

  /** The model the session runs on. */
  get model(): RealtimeModel {
    return this.#parts.options.model;
  }

  /**
   * The session configuration the provider confirmed on the live connection (read-only; a fresh frozen copy
   * on each read), or `undefined` while not connected or when the provider reports none. Barge-in follows it:
   * when the provider confirms turn detection with `interruptResponse: false`, the session cancels on user
   * speech itself, whatever the app's own config said.
   */
  get confirmedConfig(): Readonly<RealtimeSessionConfig> | undefined {
    const confirmed = this.#parts.state.connection?.confirmedConfig;
    return confirmed && Object.freeze(structuredClone(confirmed));
  }

  /**
   * The audio formats of the app's side of the session, for its whole life: what `sendAudio` takes (`input`) and
   * what `audio` events carry (`output`). They are `config.inputAudioFormat` / `config.outputAudioFormat` (default
   * `pcm16`: PCM16 at 24 kHz, mono); where the provider's own formats differ, the session converts, so these are
   * the only ones the app meets. A frozen object.
   */
  get audioFormats(): SessionAudioFormats {
    return this.#audioFormats;
  }

  /** The conversation so far: frozen snapshots, in order. */
  get history(): readonly RealtimeHistoryItem[] {
    return this.#parts.history.items;
  }

  /** Tool calls waiting for `approve()` or `reject()`. */
  get pendingApprovals(): readonly PendingApproval<TContext>[] {
    return this.#parts.approvals.pending;
  }

  /** Token usage reported by the provider, summed over the session's responses. */
  get usage(): Readonly<Usage> {
    return copyUsage(this.#parts.runContext.usage);
  }

  /**
   * What the listener heard: apps that play the audio themselves report progress here
   * (`played(itemId, ms)`, `finished(itemId)`, `interrupted()`); see {@link SessionPlayback}.
   */
  get playback(): SessionPlayback {
    return this.#parts.playback;
  }

  /** The context object tools and guardrails receive. */
  get context(): TContext {
    return this.#parts.runContext.context;
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────

  /** Calls `listener` for every event of `type`; returns the function that unsubscribes it. */
  on<T extends RealtimeSessionEventType>(
    type: T,
    listener: (event: RealtimeSessionEventOf<T, TContext>) => void,
  ): () => void {
    return this.#parts.state.hub.on(type, listener as (event: RealtimeSessionEvent<TContext>) => void);
  }

  /**
   * Every event from now on, in order. Iterators end after `close()` (once their buffered events are
   * consumed); breaking out of the loop unsubscribes.
   */
  [Symbol.asyncIterator](): AsyncIterator<RealtimeSessionEvent<TContext>> {
    return this.#parts.state.hub.iterate();
  }

  // ── lifecycle ──────────────────────────────────────────────────────────────────────────────

  /**
   * Connects to the provider with the agent's instructions and tools. If it fails, whatever it had
   * acquired is released, it rejects with `RealtimeConnectError`, and `connect()` may be called again.
   * Also reconnects after a `disconnected` status. Concurrent calls share one attempt. While the session
   * is `reconnecting` by itself, it settles with that reconnection.
   */
  connect(): Promise<void> {
    const { memory, lifecycle } = this.#parts;
    if (!memory || memory.seededAlready) return lifecycle.connect();
    return memory.seed().then(
      (loaded) => {
        if (loaded > 0) lifecycle.replayOnConnect();
        return lifecycle.connect();
      },
      (error: unknown) => {
        throw new RealtimeConnectError(`Could not load the conversation from memory: ${errorText(error)}`, {
          cause: error,
        });
      },
    );
  }

  /**
   * Closes the session: cancels and awaits tool and guardrail tasks (a tool finishing later sends
   * nothing), clears pending approvals, rejects waiting responses, closes the connection once, and ends
   * every event iterator. Idempotent and safe to call concurrently or from any task.
   */
  close(): Promise<void> {
    const { memory, lifecycle } = this.#parts;
    if (!memory) return lifecycle.close();
    return lifecycle.close().finally(() => {
      memory.ended();
      return memory.settled();
    });
  }

  /** `await using session = new RealtimeSession(...)` closes it at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // ── app → model ────────────────────────────────────────────────────────────────────────────

  /** Adds a user text message and (unless `respond: false`) asks for a response. */
  sendMessage(text: string, options: { respond?: boolean } = {}): void {
    if (typeof text !== 'string' || text.length === 0) {
      throw new UserError('sendMessage(text) needs a non-empty string.');
    }
    SEND_MESSAGE_OPTIONS.check(options);
    this.#parts.userInput.message(text, options.respond !== false);
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
    this.#parts.userInput.audio(pcm, options.commit === true);
  }

  /**
   * Ends the user's audio turn. With turn detection off (push-to-talk) it also asks for a response; with
   * turn detection on the provider decides. `respond` overrides that.
   */
  commitAudio(options: { respond?: boolean } = {}): void {
    COMMIT_AUDIO_OPTIONS.check(options);
    this.#parts.userInput.commit(options.respond);
  }

  /**
   * Stops what the user is hearing: every response still being generated or still playing (an in-flight
   * ephemeral response included) is cancelled by its id, `audio_interrupted` is emitted once for it (the
   * app's signal to stop local playback), and its messages are cut where the listener stopped hearing
   * them (see docs/realtime.md, "Interruptions"). A second call for the same response does nothing.
   */
  interrupt(): void {
    this.#parts.state.connectionFor('interrupt');
    this.#parts.interruptions.interrupt('app');
  }

  /**
   * Presses a key on the phone call the provider carries (a SIP call). A provider that carries no call
   * refuses it: an `error` event, or a `UserError` before anything is sent.
   */
  sendDtmf(digit: DtmfDigit): void {
    requireDtmfDigit('sendDtmf', digit);
    this.#parts.state.send({ type: 'sendDtmf', digit }, 'send a DTMF key');
  }

  /**
   * Reports a key the caller pressed on a line the app carries (a telephony bridge calls it for each key): emitted
   * as a `dtmf` event (`source: 'line'`), as the keys of a call the provider carries are. A closed session drops it.
   */
  receiveDtmf(digit: DtmfDigit): void {
    requireDtmfDigit('receiveDtmf', digit);
    const state = this.#parts.state;
    if (state.closing || state.status === 'closed') return;
    state.emit({ type: 'dtmf', digit, source: 'line' });
  }

  /**
   * Asks the model to respond now. The request waits while another conversation response is active; while it
   * waits, a plain one (no options) is joined by later queued inputs and tool follow-ups (one response answers
   * them all). The returned handle resolves with the response id once the provider started it; see
   * {@link ResponseHandle}.
   */
  generateResponse(options: GenerateResponseOptions = {}): ResponseHandle {
    GENERATE_REPLY_OPTIONS.check(options);
    if (options.instructions !== undefined && typeof options.instructions !== 'string') {
      throw new UserError('generateResponse({ instructions }) must be a string.');
    }
    if (options.addToHistory !== undefined && typeof options.addToHistory !== 'boolean') {
      throw new UserError('generateResponse({ addToHistory }) must be true or false.');
    }
    this.#parts.state.connectionFor('generate a response');
    requireResponseRequests(this.capabilities, this.#parts.options.model.provider, 'generate a response');
    return this.#parts.generation.generate(options);
  }

  /**
   * Makes `agent` the active agent: the same path a handoff takes (same `updateSession` command, same
   * `agent_done` / `agent_started` / `handoff` events, same tool resolution). Before `connect()` it only
   * replaces the agent. If applying it fails, the previous agent stays active, an `error` event is
   * emitted and the promise rejects.
   */
  updateAgent(agent: Agent<TContext>): Promise<void> {
    if (!(agent instanceof Agent)) return Promise.reject(new UserError('updateAgent(agent) needs an Agent.'));
    try {
      checkRealtimeHostedTools(agent, this.#parts.options.model);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#parts.switcher.update(agent);
  }

  /**
   * Adds text to the voice model's context at the current point of its timeline (providers with
   * `contextAppends`): a standing `instruction`, a silent `thought`, or `commentary` it says in its own words.
   * `delegationId` answers a `delegation_requested`. Long text goes out in several appends; returns their request
   * ids (echoed by `context_appended`).
   */
  appendContext(kind: ContextAppendKind, text: string, options: { delegationId?: string } = {}): string[] {
    if (kind !== 'instruction' && kind !== 'thought' && kind !== 'commentary') {
      throw new UserError("appendContext(kind) must be 'instruction', 'thought' or 'commentary'.");
    }
    if (typeof text !== 'string' || text.trim() === '') {
      throw new UserError('appendContext(kind, text) needs a non-empty string.');
    }
    APPEND_CONTEXT_OPTIONS.check(options);
    requireContextAppends(this.capabilities, this.#parts.options.model.provider);
    this.#parts.state.connectionFor('append context');
    return this.#parts.delegations.append(kind, text, options.delegationId);
  }

  /**
   * Approves a call announced by `tool_approval_requested` (or, for the `delegate` agent,
   * `delegation_approval_requested`); `always` approves this tool from now on.
   */
  approve(callId: string, options: { always?: boolean } = {}): void {
    this.#parts.decisions.decide(callId, { approved: true }, options.always ?? false);
  }

  /**
   * Rejects a call announced by `tool_approval_requested`: the model gets `message` (or a default) as
   * the call's output, and the session goes on. `always` rejects this tool from now on.
   */
  reject(callId: string, options: { message?: string; always?: boolean } = {}): void {
    const decision =
      options.message !== undefined
        ? { approved: false as const, message: options.message }
        : { approved: false as const };
    this.#parts.decisions.decide(callId, decision, options.always ?? false);
  }
}

function requireDtmfDigit(method: string, digit: unknown): void {
  if (!isDtmfDigit(digit)) {
    throw new UserError(
      `${method}(digit) takes one DTMF key: '0'–'9', '*', '#' or 'A'–'D' (got ${JSON.stringify(digit)}).`,
    );
  }
}
