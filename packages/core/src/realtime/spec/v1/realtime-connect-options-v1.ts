import type { RealtimeSessionConfigV1 } from './realtime-session-config-v1.js';

/** Options of {@link RealtimeModelV1.connect}. */
export interface RealtimeConnectOptionsV1 {
  /** The initial session configuration, applied before `connect` resolves. */
  config: RealtimeSessionConfigV1;
  signal?: AbortSignal;
  /** Also emit each of the provider's original events as a `raw_event` (off by default: it costs a copy per event). */
  rawEvents?: boolean;
  /**
   * A token of a `resume_token` event (providers with `sessionResumption`): resume that conversation instead of
   * starting one. A provider that cannot (the token expired, it was refused) starts a new conversation and says so
   * with `resumed: false` on the connection; `connect` rejects only for what would fail without a token too.
   */
  resumeToken?: string;
}
