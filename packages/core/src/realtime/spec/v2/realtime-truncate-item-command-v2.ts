/**
 * Cut an assistant message at the audio the listener heard: its first `heardMs` milliseconds (whole milliseconds)
 * stay in the provider's context, the rest is forgotten (providers with `messageTruncation`).
 */
export interface RealtimeTruncateItemCommandV2 {
  type: 'truncateItem';
  itemId: string;
  heardMs: number;
}
