/** Token counts of one response, with the details the provider reports. */
export interface RealtimeUsageV1 {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Input tokens by kind; `cachedTokens` were served from the provider's prompt cache. */
  inputTokenDetails?: { textTokens?: number; audioTokens?: number; cachedTokens?: number };
  /** Output tokens by kind. */
  outputTokenDetails?: { textTokens?: number; audioTokens?: number };
}
