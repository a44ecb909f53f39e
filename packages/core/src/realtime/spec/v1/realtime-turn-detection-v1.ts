/**
 * How the provider detects turns in user audio: the neutral subset every provider with turn detection can
 * honour. A provider's own detector settings (its detector type, thresholds, padding) go in `providerOptions`,
 * which the adapter documents and reads; the session never does.
 */
export interface RealtimeTurnDetectionV1 {
  /** Start a response automatically when the user stops speaking. Default `true`. */
  createResponse?: boolean;
  /** Cancel the active response when the user starts speaking. Default `true`. */
  interruptResponse?: boolean;
  /** Silence, in milliseconds, that ends the user's turn, where the provider's detector takes one. */
  silenceDurationMs?: number;
  /** The provider's own detector settings (see the adapter's documentation). */
  providerOptions?: Record<string, unknown>;
}
