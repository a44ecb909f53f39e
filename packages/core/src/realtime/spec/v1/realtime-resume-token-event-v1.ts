/**
 * The provider can resume this connection's conversation on a new connection with `token` (providers with
 * `sessionResumption`): pass it to `connect({ resumeToken })`. Each one replaces the one before; the session keeps
 * the latest.
 *
 * `contentCommands` says what the conversation the token restores holds of what the session sent: the first
 * `contentCommands` content commands (`createItem`, `sendToolOutput`, `appendContext`, counted in the order the
 * session sent them on this connection). Count only what the provider says it took in (an index of the last message
 * it consumed, say), never what was merely written: after a resume the session replays the content the token does
 * not hold, and whatever entered its history after the token arrived.
 */
export interface RealtimeResumeTokenEventV1 {
  type: 'resume_token';
  /** Opaque to the session. */
  token: string;
  contentCommands: number;
}
