import {
  ConnectionClosedError,
  type RealtimeCommand,
  type RealtimeConnection,
  type RealtimeEvent,
  type RealtimeItemInput,
  type RealtimeSessionConfig,
} from '@parley/core';
import { closeWait, reportListenerError, startKeepalive } from '@parley/transport';
import { encodeBase64 } from './base64.js';
import { ConsumedContent } from './consumed-content.js';
import { Pcm24To16 } from './downsample.js';
import { FATAL_CLOSE_CODES } from './errors.js';
import type { ResolvedGeminiOptions } from './options.js';
import { appDrivenActivity } from './setup.js';
import { SOCKET_OPEN, type SocketLeg } from './socket-leg.js';
import { GeminiTurns } from './turns.js';
import {
  durationMs,
  GEMINI_INPUT_MIME_TYPE,
  type GeminiClientMessage,
  type GeminiContent,
  type GeminiServerMessage,
} from './wire/live-wire.js';

type Listener = (event: RealtimeEvent) => void;

/** Connections opened in this process (the prefix of their ids). */
let connections = 0;
type Phase = 'open' | 'closing' | 'closed';

/** Opens the next leg of the session: a socket whose `setup` carries `handle` and the current configuration. */
export type LegOpener = (config: RealtimeSessionConfig, handle: string | undefined) => Promise<SocketLeg>;

/** The close codes' names in the `error` event of a fatal close. */
const CLOSE_NAMES: Record<number, string> = { 1007: 'invalid_argument', 1008: 'policy_violation' };

/**
 * One Gemini Live session as a seam connection. The service keeps the session's context and hands out resumption
 * handles: each is a `resume_token` (counting the content its state holds), and `goAway` is a `session_expiring`, so
 * the session recycles between turns and resumes with the latest token. A configuration change, which only a new
 * `setup` can carry, is applied by resuming on a new socket between turns, and the session sees one connection
 * throughout. A close with a code that says the request itself is wrong (1007, 1008) is a fatal `error`.
 */
export class GeminiLiveConnection implements RealtimeConnection {
  readonly #options: ResolvedGeminiOptions;
  readonly #openLeg: LegOpener;
  readonly #rawEvents: boolean;
  readonly #turns: GeminiTurns;
  readonly #downsample = new Pcm24To16();
  #leg: SocketLeg;
  #config: RealtimeSessionConfig;
  #phase: Phase = 'open';
  #listeners: Listener[] = [];
  #backlog: RealtimeEvent[] | undefined = [];
  #ids = 0;
  /**
   * The service gives no ids: the adapter's own are unique within the process, so a session that moves to a new
   * connection never meets an id of the old one again.
   */
  readonly #idPrefix = (++connections).toString(36);
  #stopKeepalive: () => void = () => {};
  #closed: Promise<void> | undefined;
  /** The latest handle the service said it can resume from, and the content commands its state holds. */
  #handle: { token: string; held: number } | undefined;
  /** A new configuration waits to be carried by a resumption. */
  #resumeDue = false;
  /** Frames written while the next leg was being set up (with the content commands each carries): they go out on it. */
  #parked: [string, number][] | undefined;
  readonly #consumed = new ConsumedContent();
  #expiresAt: number | undefined;
  /** Calls the model made whose output was not sent yet. */
  readonly #outstanding = new Set<string>();
  /** Push-to-talk: `activityStart` was sent and `activityEnd` not yet. */
  #activityOpen = false;
  /** Push-to-talk: the user's activity ended and the service has not started its answer yet. */
  #answerComing = false;
  /** Tool responses went out: the model's answer to them is coming (a resumption waits for it). */
  #toolAnswerComing = false;
  /** Names of the calls in replayed history, for their outputs. */
  readonly #replayedCalls = new Map<string, string>();

  /** @internal `GeminiLiveModel.connect()` opens connections. */
  constructor(
    options: ResolvedGeminiOptions,
    leg: SocketLeg,
    config: RealtimeSessionConfig,
    openLeg: LegOpener,
    rawEvents: boolean,
    resumed: boolean,
  ) {
    this.resumed = resumed;
    this.#options = options;
    this.#leg = leg;
    this.#config = config;
    this.#openLeg = openLeg;
    this.#rawEvents = rawEvents;
    this.#turns = new GeminiTurns(
      (event) => this.#onTurnEvent(event),
      (prefix) => `${prefix}_gemini_${this.#idPrefix}_${++this.#ids}`,
    );
    this.#adopt(leg);
    this.#emit({ type: 'connection_status', status: 'connected' });
  }

  /** `true` when `connect` resumed the session of its `resumeToken`. */
  readonly resumed: boolean;

  get status(): 'open' | 'closed' {
    return this.#phase === 'open' ? 'open' : 'closed';
  }

  get expiresAt(): number | undefined {
    return this.#expiresAt;
  }

  /** The service's id of the session (`setupComplete.sessionId`), when it gives one. */
  get sessionId(): string | undefined {
    return this.#leg.sessionId;
  }

  onEvent(listener: (event: RealtimeEvent) => void): () => void {
    this.#listeners = [...this.#listeners, listener];
    const backlog = this.#backlog;
    this.#backlog = undefined;
    if (backlog && backlog.length > 0) queueMicrotask(() => this.#dispatchAll(backlog));
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  send(command: RealtimeCommand): void {
    if (this.#phase !== 'open') {
      throw new ConnectionClosedError(`Cannot send "${command.type}": the Gemini Live connection is closed.`);
    }
    switch (command.type) {
      case 'appendInputAudio': {
        const audio = this.#downsample.convert(command.audio);
        if (appDrivenActivity(this.#config) && !this.#activityOpen) {
          this.#activityOpen = true;
          this.#write('activityStart', { realtimeInput: { activityStart: {} } });
        }
        if (audio.length === 0) return;
        this.#write('appendInputAudio', {
          realtimeInput: { audio: { data: encodeBase64(audio), mimeType: GEMINI_INPUT_MIME_TYPE } },
        });
        return;
      }
      case 'commitInputAudio':
        // With the service's own activity detection it ends the user's turn by itself: nothing to commit.
        if (!this.#activityOpen) return;
        this.#activityOpen = false;
        this.#answerComing = true;
        this.#write('commitInputAudio', { realtimeInput: { activityEnd: {} } });
        return;
      case 'createItem':
        this.#createItem(command.item);
        return;
      case 'createResponse': {
        if (command.ephemeral || command.tools !== undefined) {
          this.#refuse(
            command,
            'Gemini Live has no per-response options: a response is always part of the conversation, with the ' +
              "session's tools.",
          );
          return;
        }
        // A turn the app is stopping ends by the next client content anyway: a request may follow the cancel at once.
        if (this.#turns.stoppable && !this.#turns.stopping) {
          this.#reportLater({
            type: 'error',
            code: 'response_in_progress',
            message: 'The model is answering already; Gemini Live cannot start a second answer.',
            commandType: 'createResponse',
            clientRequestId: command.clientRequestId,
          });
          return;
        }
        this.#turns.expectTurn(command.clientRequestId);
        // No per-response instructions: they can only join the context, as a turn of their own (the session warns).
        const turns: GeminiContent[] =
          command.instructions === undefined
            ? []
            : [{ role: 'user', parts: [{ text: command.instructions }] }];
        // After the end of the user's activity the answer is coming already: a second request would be a second one.
        const complete = !this.#answerComing;
        if (turns.length === 0 && !complete) return;
        this.#write('createResponse', {
          clientContent: { ...(turns.length > 0 && { turns }), turnComplete: complete },
        });
        return;
      }
      case 'cancelResponse':
        // Gemini Live has no cancel message; client content interrupts the turn being generated, so an empty one
        // stops it (the service then says `interrupted`). Between turns, or once the service stopped the turn itself
        // (the user spoke), there is nothing to stop: a write now would interrupt the answer to what the user said.
        if (!this.#turns.stoppable) return;
        this.#turns.cancelling();
        this.#write('cancelResponse', { clientContent: { turnComplete: false } });
        return;
      case 'sendToolOutput':
        this.#sendToolOutput(command.callId, command.output);
        return;
      case 'updateSession':
        this.#updateSession(command.config);
        return;
      case 'deleteItem':
      case 'truncateItem':
      case 'appendContext':
        this.#refuse(command, `Gemini Live cannot "${command.type}": its context only grows.`);
        return;
    }
  }

  close(): Promise<void> {
    if (this.#closed) return this.#closed;
    if (this.#phase === 'closed') {
      this.#closed = Promise.resolve();
      return this.#closed;
    }
    this.#phase = 'closing';
    this.#stopKeepalive();
    this.#turns.cut();
    const leg = this.#leg;
    const wait = closeWait(this.#options.clock, this.#options.closeTimeoutMs, () => leg.terminate());
    this.#awaitClose = wait.closed;
    leg.adopt({
      message: () => {},
      closed: () => wait.closed(),
      failed: () => {
        leg.terminate();
        wait.closed();
      },
    });
    try {
      leg.socket.close(1000, 'OK');
    } catch {
      leg.terminate();
      wait.closed();
    }
    this.#closed = wait.done.then(() => {
      this.#phase = 'closed';
      leg.terminate();
    });
    return this.#closed;
  }

  #awaitClose: (() => void) | undefined;

  // --- commands ---

  /** Appends one turn to the context (`turnComplete: false`: the model does not answer it by itself). */
  #createItem(item: RealtimeItemInput): void {
    this.#write('createItem', { clientContent: { turns: [this.#turnOf(item)], turnComplete: false } }, 1);
  }

  #turnOf(item: RealtimeItemInput): GeminiContent {
    switch (item.type) {
      case 'message': {
        const text = item.content
          .map((part) => (part.type === 'text' ? part.text : (part.transcript ?? '')))
          .join('');
        return { role: item.role === 'assistant' ? 'model' : 'user', parts: [{ text }] };
      }
      case 'function_call':
        this.#replayedCalls.set(item.callId, item.name);
        return {
          role: 'model',
          parts: [
            { functionCall: { id: item.callId, name: item.name, args: parseArguments(item.arguments) } },
          ],
        };
      case 'function_call_output':
        return {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: item.callId,
                name: this.#replayedCalls.get(item.callId) ?? '',
                response: { output: parseOutput(item.output) },
              },
            },
          ],
        };
    }
  }

  #sendToolOutput(callId: string, output: string): void {
    this.#outstanding.delete(callId);
    const call = this.#turns.call(callId);
    const name = call?.name ?? this.#replayedCalls.get(callId);
    this.#turns.forgetCall(callId);
    // The model answers the tool responses by itself: a resumption waits for that answer.
    if (this.#outstanding.size === 0) this.#toolAnswerComing = true;
    this.#write(
      'sendToolOutput',
      {
        toolResponse: {
          functionResponses: [
            {
              // A call the service gave no id is answered by name alone; a replayed call keeps its id.
              ...(call === undefined ? { id: callId } : call.wireId !== undefined && { id: call.wireId }),
              name: name ?? '',
              response: { output: parseOutput(output) },
            },
          ],
        },
      },
      1,
    );
    this.#maybeResume();
  }

  #updateSession(update: RealtimeSessionConfig): void {
    const next = { ...this.#config, ...update };
    const changed =
      update.instructions !== undefined && update.instructions !== this.#config.instructions
        ? true
        : (update.tools !== undefined &&
            JSON.stringify(update.tools) !== JSON.stringify(this.#config.tools)) ||
          (update.voice !== undefined && update.voice !== this.#config.voice) ||
          (update.turnDetection !== undefined &&
            JSON.stringify(update.turnDetection) !== JSON.stringify(this.#config.turnDetection));
    this.#config = next;
    if (!changed) return;
    // Only a new setup carries a configuration: the session resumes with it between turns.
    this.#resumeDue = true;
    queueMicrotask(() => this.#maybeResume());
  }

  /** Refuses a command the way a service does: with an `error` event after `send` returned. */
  #refuse(command: RealtimeCommand, message: string): void {
    this.#reportLater({
      type: 'error',
      code: 'capability_not_supported',
      message,
      commandType: command.type,
      ...((command.type === 'createResponse' || command.type === 'appendContext') && {
        clientRequestId: command.clientRequestId,
      }),
    });
  }

  #reportLater(event: RealtimeEvent): void {
    queueMicrotask(() => {
      if (this.#phase === 'open') this.#emit(event);
    });
  }

  /**
   * Hands one frame to the current socket. A socket that stopped being open, or whose write throws, ends the
   * connection at once (`send` then throws {@link ConnectionClosedError}). While the next leg is being set up,
   * frames wait for it.
   */
  #write(what: string, message: GeminiClientMessage, contentCommands = 0): void {
    const frame = JSON.stringify(message);
    if (this.#parked) {
      this.#parked.push([frame, contentCommands]);
      return;
    }
    const socket = this.#leg.socket;
    let failure: string | undefined;
    if (socket.readyState === SOCKET_OPEN) {
      try {
        socket.send(frame);
        this.#consumed.messageWritten(contentCommands);
        return;
      } catch (error) {
        failure = `writing "${what}" to the socket failed: ${this.#leg.redact(error instanceof Error ? error.message : String(error))}`;
      }
    }
    if (this.#phase !== 'open') return;
    const reason =
      failure ??
      `the socket stopped being open (readyState ${socket.readyState}) before "${what}" was written`;
    this.#lost(reason, false);
    throw new ConnectionClosedError(`Cannot send "${what}": ${reason}; it was not sent.`);
  }

  // --- events ---

  #adopt(leg: SocketLeg): void {
    this.#leg = leg;
    leg.adopt({
      message: (message, text) => this.#onMessage(leg, message, text),
      closed: (code, reason) => this.#onClosed(leg, code, reason),
      failed: (reason) => {
        if (this.#leg === leg) this.#lost(reason, true);
      },
    });
    this.#stopKeepalive();
    const { keepalive, clock } = this.#options;
    if (keepalive) {
      this.#stopKeepalive = startKeepalive(leg.socket, clock, keepalive, (reason) => {
        if (this.#leg === leg) this.#lost(reason, true);
      });
    }
  }

  #onMessage(leg: SocketLeg, message: GeminiServerMessage, text: string): void {
    if (this.#leg !== leg || this.#phase !== 'open') return;
    if (this.#rawEvents) this.#emit({ type: 'raw_event', event: JSON.parse(text) });
    if (message.usageMetadata) this.#turns.usage(message.usageMetadata);
    if (message.serverContent) {
      if (message.serverContent.turnComplete || message.serverContent.interrupted) {
        this.#answerComing = false;
        this.#toolAnswerComing = false;
      }
      this.#turns.serverContent(message.serverContent);
      if (message.serverContent.turnComplete) queueMicrotask(() => this.#maybeResume());
    }
    if (message.toolCall) {
      this.#answerComing = false;
      this.#toolAnswerComing = false;
      this.#turns.toolCall(message.toolCall.functionCalls ?? []);
    }
    if (message.toolCallCancellation) {
      for (const id of message.toolCallCancellation.ids ?? []) {
        if (!this.#outstanding.delete(id)) continue;
        this.#turns.forgetCall(id);
        this.#emit({ type: 'function_call_cancelled', callId: id });
      }
      queueMicrotask(() => this.#maybeResume());
    }
    const update = message.sessionResumptionUpdate;
    if (update?.resumable === true && update.newHandle) this.#onHandle(update.newHandle, update);
    if (message.goAway) this.#onGoAway(durationMs(message.goAway.timeLeft) ?? 0);
  }

  #onHandle(token: string, update: { lastConsumedClientMessageIndex?: string }): void {
    const index = update.lastConsumedClientMessageIndex;
    const held = this.#consumed.held(index === undefined ? undefined : Number(index));
    this.#handle = { token, held };
    this.#emit({ type: 'resume_token', token, contentCommands: held });
    this.#maybeResume();
  }

  #onTurnEvent(event: RealtimeEvent): void {
    if (event.type === 'function_call') this.#outstanding.add(event.callId);
    this.#emit(event);
  }

  /** The service ends this socket soon: the session recycles the connection (resuming with the latest token). */
  #onGoAway(timeLeftMs: number): void {
    const expiresAt = Date.now() + timeLeftMs;
    this.#expiresAt = expiresAt;
    this.#emit({ type: 'session_expiring', expiresAt });
  }

  /**
   * Carries a new configuration by resuming the session on a new socket with it, when one is due and the service
   * can: between turns, with no call open.
   */
  #maybeResume(): void {
    if (
      !this.#resumeDue ||
      this.#parked !== undefined ||
      this.#phase !== 'open' ||
      this.#turns.active ||
      this.#answerComing ||
      this.#toolAnswerComing ||
      this.#activityOpen ||
      this.#outstanding.size > 0
    ) {
      return;
    }
    // Without a handle a new socket would start a new session: wait for the next handle.
    if (!this.#options.sessionResumption || this.#handle === undefined) return;
    this.#resumeDue = false;
    const previous = this.#leg;
    const handle = this.#handle;
    this.#parked = [];
    this.#openLeg(this.#config, handle?.token).then(
      (leg) => {
        const parked = this.#parked ?? [];
        this.#parked = undefined;
        if (this.#phase !== 'open') {
          leg.release();
          return;
        }
        this.#consumed.socketStarted(handle.held);
        this.#adopt(leg);
        previous.release();
        for (const [frame, content] of parked) {
          if (leg.socket.readyState !== SOCKET_OPEN) break;
          leg.socket.send(frame);
          this.#consumed.messageWritten(content);
        }
      },
      (error: unknown) => {
        const parked = this.#parked ?? [];
        this.#parked = undefined;
        if (this.#phase !== 'open') return;
        for (const [frame, content] of parked) {
          if (previous.socket.readyState !== SOCKET_OPEN) break;
          previous.socket.send(frame);
          this.#consumed.messageWritten(content);
        }
        const message = error instanceof Error ? error.message : String(error);
        this.#emit({
          type: 'error',
          code: 'session_not_resumed',
          message: `The new configuration could not be applied: ${message}`,
          commandType: 'updateSession',
        });
      },
    );
  }

  #onClosed(leg: SocketLeg, code: number, reason: string): void {
    if (this.#leg !== leg) return;
    if (this.#phase === 'closing') {
      this.#awaitClose?.();
      return;
    }
    if (this.#phase !== 'open') return;
    this.#phase = 'closed';
    this.#stopKeepalive();
    this.#turns.cut();
    if (FATAL_CLOSE_CODES.has(code)) {
      this.#emit({
        type: 'error',
        code: CLOSE_NAMES[code] ?? `close_${code}`,
        message: `Gemini Live closed the session (close code ${code}): ${reason || 'no reason given'}.`,
        fatal: true,
      });
    }
    this.#emit({
      type: 'connection_status',
      status: 'disconnected',
      reason: reason || `Gemini Live closed the connection (close code ${code}).`,
    });
  }

  /** The socket stopped being usable while open: the connection is closed now, without a closing handshake. */
  #lost(reason: string, now: boolean): void {
    if (this.#phase !== 'open') return;
    this.#phase = 'closed';
    this.#stopKeepalive();
    this.#turns.cut();
    this.#leg.terminate();
    const event: RealtimeEvent = { type: 'connection_status', status: 'disconnected', reason };
    if (now) this.#emit(event);
    else queueMicrotask(() => this.#emit(event));
  }

  #emit(event: RealtimeEvent): void {
    if (this.#backlog) {
      this.#backlog.push(event);
      return;
    }
    this.#dispatchAll([event]);
  }

  #dispatchAll(events: readonly RealtimeEvent[]): void {
    for (const event of events) {
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch (error) {
          reportListenerError(error);
        }
      }
    }
  }
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** A tool output as the response's `output` field: its JSON value where it is JSON, else the text. */
function parseOutput(output: string): unknown {
  try {
    return JSON.parse(output);
  } catch {
    return output;
  }
}
