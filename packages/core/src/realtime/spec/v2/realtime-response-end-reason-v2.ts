/**
 * Why a response ended without completing:
 * - `client_cancelled`: the session cancelled it;
 * - `user_turn`: the user took the turn: the provider heard them start speaking, or new content interrupted the model
 *   (a provider without `contentDuringResponse`);
 * - `max_output_tokens`: it hit its output limit;
 * - `content_filter`: the provider's content filter stopped it;
 * - `connection_lost`: the connection ended before it did (reported by the session, never by a provider);
 * - `provider_error`: the provider failed it (the error's code is in `errorCode`);
 * - `stale`: it sent no event for the session's `staleResponseMs`, so the session dropped it (reported by the
 *   session, never by a provider).
 */
export type RealtimeResponseEndReasonV2 =
  | 'client_cancelled'
  | 'user_turn'
  | 'max_output_tokens'
  | 'content_filter'
  | 'connection_lost'
  | 'provider_error'
  | 'stale';
