/** A user, assistant or system message in the session's history. */
export interface RealtimeMessageHistoryItem {
  readonly type: 'message';
  /** The provider's item id. */
  readonly itemId: string;
  readonly role: 'user' | 'assistant' | 'system';
  /** Typed text, or the transcript of spoken audio (empty while it is still being transcribed). */
  readonly text: string;
  /** Whether the message was spoken (user input audio or assistant output audio). */
  readonly hasAudio: boolean;
  readonly status: 'in_progress' | 'completed' | 'incomplete';
  /**
   * `true` when the response producing it was interrupted or cancelled before it finished; for a spoken user
   * message, when its transcription was cut (the connection ended before the final transcript): `text` is partial.
   */
  readonly interrupted: boolean;
  /**
   * A spoken assistant message the listener stopped hearing: how many milliseconds of its audio they heard.
   * Absent when they heard it all (or it was not spoken).
   */
  readonly heardMs?: number;
  /**
   * The part of `text` the heard audio covers (estimated in proportion to the audio heard, cut at a word
   * boundary): what a reconnect replays. Present whenever `heardMs` is.
   */
  readonly heardText?: string;
  /** The response that produced it (assistant messages). */
  readonly responseId?: string;
  /** The agent whose response produced it (assistant messages). */
  readonly agentName?: string;
}

/** A function call (a tool or a handoff) with its output once the session has sent one. */
export interface RealtimeFunctionCallHistoryItem {
  readonly type: 'function_call';
  readonly itemId: string;
  readonly callId: string;
  readonly name: string;
  /** The raw JSON arguments the model sent. */
  readonly arguments: string;
  /** The output sent to the model; absent while the call is running or awaiting approval, and when cancelled. */
  readonly output?: string;
  /** `cancelled`: the provider withdrew the call; it was stopped and no output was sent (nor is one replayed). */
  readonly status: 'in_progress' | 'completed' | 'cancelled';
  readonly responseId?: string;
  readonly agentName?: string;
}

/** One entry of `session.history`: read-only snapshots, replaced (never mutated) when they change. */
export type RealtimeHistoryItem = RealtimeMessageHistoryItem | RealtimeFunctionCallHistoryItem;
