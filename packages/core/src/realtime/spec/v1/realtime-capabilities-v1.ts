import type { RealtimeConnectionV1 } from './realtime-connection-v1.js';

/**
 * What a realtime provider promises. The session reads these to choose a strategy; a provider declares
 * `true` only for what its conformance run proves.
 */
export interface RealtimeCapabilitiesV1 {
  /**
   * An ephemeral response can be generated (a `createResponse` outside the conversation) and spoken without entering the
   * conversation: its items are never added to the provider's context.
   */
  ephemeralResponse: boolean;
  /** An assistant message can be cut at an audio position (`truncateItem`), so the model forgets the rest. */
  messageTruncation: boolean;
  /** Items can be inserted and deleted (`deleteItem`) mid-session. */
  mutableChatContext: boolean;
  /** The provider detects the user's turns in the audio it receives and emits speech started/stopped events. */
  turnDetection: boolean;
  /** The provider transcribes user audio and emits `input_transcription` events. */
  userTranscription: boolean;
  /** The provider speaks: responses carry `audio_delta` events (in the session's `outputAudioFormat`). */
  audioOutput: boolean;
  /** Instructions can be changed with `updateSession` after connecting (handoffs rely on it). */
  mutableInstructions: boolean;
  /** The tool set can be changed with `updateSession` after connecting (handoffs rely on it). */
  mutableTools: boolean;
  /**
   * The provider starts the follow-up response by itself after a tool output; the session must then not
   * request one.
   */
  autoToolResponseGeneration: boolean;
  /**
   * The app can take a turn: add a user message to the conversation (`createItem`) and ask for a response
   * (`createResponse`), which the model then gives. Whether content may arrive mid-response, whether a commit
   * answers by itself and whether per-response instructions exist are their own flags (`contentDuringResponse`,
   * `commitStartsResponse`, `responseInstructions`). Without it the model decides by itself when to speak (it takes its
   * turns from the audio it hears), and `sendMessage` / `generateResponse` are refused with `CapabilityNotSupportedError`.
   */
  responseRequests: boolean;
  /**
   * Optional (absent means `false`). The provider's voice model does not call tools; it delegates work and says so
   * with `delegation_requested`. The app (or the session's `delegate` agent) answers with `appendContext`.
   */
  delegation?: boolean;
  /**
   * Optional (absent means `false`). Text can be appended to the model's context mid-session (`appendContext`: a
   * standing instruction, a silent thought or speakable commentary), acknowledged with `context_appended` once the
   * provider's timeline reaches it.
   */
  contextAppends?: boolean;
  /**
   * Optional (absent means `false`). The provider's clock advances with input audio, so input must never stop (send
   * silence while the microphone is idle), and its output is one continuous track: speech arrives as responses,
   * the silence between them as `output_silence`.
   */
  continuousAudio?: boolean;
  /**
   * Optional (absent means `true`: what every v1 adapter written before it does). The provider acknowledges the content
   * the session adds: each user message the session creates and each tool output it sends is announced with
   * `item_added`. Declared `false` (a protocol without acknowledgements), the session records what it sent in its
   * history itself, waits for no echo, and after a cut replays whatever the new connection cannot be shown to hold.
   */
  contentAcknowledgements?: boolean;
  /**
   * Optional (absent means `false`). A connection's conversation can be resumed on a new connection: the connection
   * emits `resume_token` events, and `connect({ resumeToken })` resumes the conversation that token restores
   * ({@link RealtimeConnectionV1.resumed} says whether it did). Reconnects and recycles then replay only what the
   * token does not hold.
   */
  sessionResumption?: boolean;
  /**
   * Optional (absent means `true`: what every v1 adapter written before it does). Content added while a response
   * streams (a user message) leaves that response alone. Declared `false` (a provider where new content interrupts the
   * model), the session holds user messages sent during a response and sends them, with their one response request,
   * once it is done.
   */
  contentDuringResponse?: boolean;
  /**
   * Optional (absent means `false`). Committing user audio (`commitInputAudio`) starts the model's answer by itself
   * (the end of the user's turn is the request): the session never asks for a response after a commit, so
   * push-to-talk asks once.
   */
  commitStartsResponse?: boolean;
  /**
   * Optional (absent means `true`: what every v1 adapter written before it does). A response request's
   * `instructions` apply to that response alone. Declared `false` (a provider that can only put them into the model's
   * context, where they stay while the session's history does not show them), the session still sends them and says
   * so with a `response_instructions_persist` warning.
   */
  responseInstructions?: boolean;
  /**
   * Optional (absent means `false`). The service plays the assistant's audio to the listener itself (a WebRTC peer or
   * a phone line it terminates) and knows what was heard. An interruption is then a cancel plus `clearOutputAudio`:
   * the service stops playback and cuts the message where the listener stopped hearing it (the session sends no
   * `truncateItem`), and what was heard arrives as `output_audio_started` / `output_audio_stopped` /
   * `output_audio_cleared` and `item_truncated` with `heardMs`, not from the app's playback reports. A connection may
   * declare it for itself ({@link RealtimeConnectionV1.servicePlayback}) where one model opens connections of both kinds.
   */
  servicePlayback?: boolean;
  /**
   * Optional (absent means `true`: what every v1 adapter written before it does). A failure that does not end the
   * connection reaches the session as an `error` event on the open connection: one that answers no request, or one that
   * refuses a request (a response request among them), and the connection stays usable. Declared `false` (a provider
   * whose every failure ends the connection, with a close code at most), provider errors only ever arrive as fatal ones,
   * and a response request is never refused. The session needs no strategy for it: it handles both alike.
   */
  recoverableErrors?: boolean;
  /**
   * Optional (absent means `true`: what every v1 adapter written before it does). A response may hold several outputs
   * one after the other: more than one assistant message, and further output (or only its end) after its function
   * calls, so their outputs may be sent while it is still active. Declared `false` (a provider whose response is one
   * message, or function calls that end it), nothing changes in the session: it handles both shapes alike.
   */
  compoundResponses?: boolean;
  /**
   * Optional (absent means `false`). The provider may withdraw a function call it made (typically after the user
   * interrupted the response that made it): `function_call_cancelled` with the call id, once per call, and the
   * session stops the tool and sends no output. Without it no call is ever withdrawn: every tool runs to its end
   * and its output is sent. The session needs no strategy for it.
   */
  toolCallCancellation?: boolean;
}

/** The names of all capability flags. */
export type RealtimeCapabilityV1 = keyof RealtimeCapabilitiesV1;

/** What an optional capability a provider does not name means; one not listed here is `false`. */
export const REALTIME_CAPABILITY_DEFAULTS_V1: Readonly<Partial<RealtimeCapabilitiesV1>> = Object.freeze({
  contentAcknowledgements: true,
  contentDuringResponse: true,
  responseInstructions: true,
  recoverableErrors: true,
  compoundResponses: true,
});
