import type {
  Clock,
  RealtimeCommand,
  RealtimeItem,
  RealtimeModel,
  RealtimeSessionConfig,
} from '@parley/core';
import type { ScriptedOutput } from '@parley/core/internal';

/** One output item of a scripted response (a message, or a function call). */
export type HarnessOutput = ScriptedOutput;

/**
 * What the model does in one response. Only a model declaring `compoundResponses` is scripted a compound one (see
 * {@link isCompoundResponse}).
 */
export interface HarnessResponse {
  /** The response's output items, in order. */
  output: HarnessOutput[];
  /**
   * Keep the response active after its output, until {@link RealtimeHarness.finishResponse}. Used to
   * make everything else (tool outputs, cancels) happen before `response_done`.
   */
  hold?: boolean;
}

/**
 * Whether `response` needs the `compoundResponses` capability: more than one message, or anything after its function
 * calls (further output, or `hold`, which keeps it open around them). Without the capability a response is one
 * message, or function calls that end it (after a message or not).
 */
export function isCompoundResponse(response: HarnessResponse): boolean {
  const { output } = response;
  const firstCall = output.findIndex((o) => o.type === 'function_call');
  return (
    output.filter((o) => o.type === 'message').length > 1 ||
    (firstCall >= 0 &&
      (response.hold === true || output.slice(firstCall).some((o) => o.type !== 'function_call')))
  );
}

/** A {@link Clock} that moves only when told to: `ManualClock` from `@parley/mock` is one. */
export interface SteppedClock extends Clock {
  /** Moves time forward by `ms`, firing the timers due meanwhile, and resolves once their effects settled. */
  advance(ms: number): Promise<void>;
}

/** Which commands {@link RealtimeHarness.waitForCommand} waits for: a type, or a predicate. */
export type CommandMatch = RealtimeCommand['type'] | ((command: RealtimeCommand) => boolean);

/**
 * How the conformance scenarios drive one adapter: script "the model does X" on its backend, and read
 * back what the adapter sent. Every method may be asynchronous (a backend behind a real socket); the
 * scenarios await each one and never rely on synchronous delivery.
 *
 * A fresh harness is created for every scenario and disposed after it.
 *
 * Scripting rules:
 * - every response the backend produces, whether the adapter requested it (`createResponse`) or the
 *   backend started it itself (turn detection, `autoToolResponseGeneration`), plays the next queued
 *   {@link HarnessResponse}; scenarios queue a response before they trigger one;
 * - the backend behaves like the provider: one active default-conversation response (a second request
 *   is refused with an `error` event in the provider's own code; the scenarios name no provider's codes),
 *   items enter its conversation, a cancelled response ends with status `cancelled`.
 *
 * Normalization rules for {@link commands}: what the backend received, translated back to the seam's
 * {@link RealtimeCommand} shapes, in the order received, on every connection of this harness. A tool
 * output (however the wire spells it) is a `sendToolOutput`; a response request carries the session's
 * `clientRequestId`; audio is the decoded bytes; fields the adapter did not send are absent.
 */
export interface RealtimeHarness {
  /** The adapter under test, wired to this harness's backend. */
  readonly model: RealtimeModel;

  /**
   * A clock the scenarios that test the session's own timeouts (a response that never ends) give the session
   * (`RealtimeSessionOptions.clock`) and move themselves, so that a loaded machine can fire no timeout early or late.
   * Give a fresh one per harness that nothing else reads (not your backend's pacing clock): `new ManualClock()` from
   * `@parley/mock`. Optional: without it those scenarios run on the system clock with short real bounds, which a
   * heavily loaded machine can miss.
   */
  readonly sessionClock?: SteppedClock | undefined;

  /** Queues what the model does for the next responses, in order. */
  respondWith(...responses: HarnessResponse[]): Promise<void>;
  /**
   * Queues responses as {@link respondWith} does, whose backend announces each output item (the provider's item
   * announcement, the seam's `item_added`) before the response's output links it to the response (before the
   * item's `message_started` or `function_call`), as the service may for an out-of-band response. Implemented where
   * the provider's protocol allows that order (it has item announcements at all); a scenario that needs it is
   * reported skipped elsewhere.
   */
  respondAnnouncingItemsEarly?(...responses: HarnessResponse[]): Promise<void>;
  /** Continues the response held by `hold: true` or `holdAfterMs` (for `hold`, its `response_done` follows). */
  finishResponse(): Promise<void>;
  /**
   * The user starts speaking: the backend's turn detection reports speech started and, like the
   * provider, cancels an active response (status `cancelled`). Only called when `turnDetection` is declared.
   */
  userStartsSpeaking(): Promise<void>;
  /**
   * The user stops speaking: the backend commits the user's audio as a user message (transcribed as
   * `transcript` where `userTranscription` is declared) and starts a response itself (the next queued
   * one). Only called when `turnDetection` is declared.
   */
  userStopsSpeaking(options?: { transcript?: string }): Promise<void>;
  /**
   * Audio (PCM16, 24 kHz, mono) in which the backend hears the user say `text`. Implemented where the model declares
   * `delegation` (its scenarios speak to a voice model that takes its turns by itself).
   */
  userSpeech?(text: string): Uint8Array | Promise<Uint8Array>;
  /**
   * The model delegates the user's next utterance to the app (`delegation_requested`, target `app`). Implemented where
   * the model declares `delegation`.
   */
  delegateNext?(): Promise<void>;
  /**
   * The backend commits the user's audio as a user message, delivers `partial` as the beginning of its transcript
   * (never a final transcript) and drops the connection before transcription ends, as {@link disconnect} does.
   * Implemented where the model declares `userTranscription`.
   */
  cutMidTranscription?(partial: string): Promise<void>;
  /**
   * The backend reports an error that answers no request, and the connection stays open. Implemented where the model
   * declares `recoverableErrors` (a provider whose every failure ends the connection has no such error).
   */
  emitError?(error: { code: string; message: string }): Promise<void>;
  /**
   * The backend refuses the next response request with this error, echoing its request id. Implemented where the
   * model declares `recoverableErrors`.
   */
  refuseNextResponse?(error: { code: string; message: string }): Promise<void>;
  /**
   * The backend refuses the next response request as the provider refuses one that collides with an active
   * response: with the provider's own error, naming no request (where the provider's collision error does).
   * Implemented where the model declares `recoverableErrors`.
   */
  collideNextResponse?(): Promise<void>;
  /** The backend drops the connection (the adapter must report `connection_status: disconnected`). */
  disconnect(): Promise<void>;
  /**
   * The backend ends the connection with a failure its provider documents as fatal (an error message after which it
   * closes, or only a close code, such as a quota or an invalid argument); resolves with the error `code` the adapter
   * reports for it. The adapter must emit `error` with `fatal: true` before `connection_status: disconnected`.
   * Optional: a harness whose provider has no such failure leaves it out (the scenario is then skipped).
   */
  failFatally?(): Promise<{ code: string }>;
  /**
   * The backend withdraws the function call `callId` it made (the provider's tool-call cancellation, the seam's
   * `function_call_cancelled`). Implemented where the model declares `toolCallCancellation`.
   */
  cancelToolCall?(callId: string): Promise<void>;
  /**
   * The adapter's transport to the backend stops being open without a word, as a socket whose closing handshake
   * started and is never acknowledged: no close, no error and no further event reaches the adapter, and whatever
   * it writes from now on is dropped by the transport. Only the adapter can notice (it finds the transport not
   * open when it next writes). Optional: a harness that cannot reach its adapter's transport leaves it out; the
   * scenarios look for it once the session is connected (a harness may only reach a transport the adapter opened).
   */
  readonly connectionStopsSilently?: (() => Promise<void>) | undefined;
  /**
   * The next write of a `commandType` command to the adapter's transport fails (a broken socket: the write throws)
   * and the command never reaches the backend. Optional, as {@link connectionStopsSilently}.
   */
  readonly failNextWrite?: ((commandType: RealtimeCommand['type']) => Promise<void>) | undefined;

  /** Everything the backend received so far, normalized (see above). */
  commands(): Promise<readonly RealtimeCommand[]>;
  /**
   * Resolves with all matching commands once at least `count` (default 1) were received, counting
   * earlier ones; rejects after `timeoutMs` (default 2000) with what was received instead.
   */
  waitForCommand(
    match: CommandMatch,
    options?: { count?: number; timeoutMs?: number },
  ): Promise<RealtimeCommand[]>;
  /**
   * The backend's current session configuration for the latest connection (the connect config merged
   * with every accepted update), in the seam's shape. Scenarios read `instructions` and tool names.
   */
  sessionConfig(): Promise<RealtimeSessionConfig>;
  /**
   * The backend's conversation on the latest connection, in order and in the seam's shape: what the model
   * remembers. Out-of-band responses never enter it; truncated and deleted items show as the backend
   * keeps them.
   */
  conversation(): Promise<readonly RealtimeItem[]>;
  /** Resolves once the adapter closed its latest connection from the client side. */
  waitForClientClose(options?: { timeoutMs?: number }): Promise<void>;

  /** Releases everything the harness holds (servers, sockets, timers). Called after every scenario. */
  dispose(): Promise<void>;
}

/** Creates a fresh harness for one scenario. */
export type RealtimeHarnessFactory = () => RealtimeHarness | Promise<RealtimeHarness>;
