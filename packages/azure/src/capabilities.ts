import type { RealtimeCapabilities } from '@parley/core';
import { OPENAI_REALTIME_CAPABILITIES } from '@parley/openai';

/**
 * What Azure OpenAI Realtime is declared to support: what the conformance suite proves against the simulator in
 * Azure mode (GA and legacy) and Azure documents. Out-of-band (ephemeral) responses are not documented
 * by Azure either way, so `ephemeralResponse` stays false: an ephemeral response takes the session's warned ordinary
 * path.
 */
export const AZURE_REALTIME_CAPABILITIES: Readonly<RealtimeCapabilities> = Object.freeze({
  ...OPENAI_REALTIME_CAPABILITIES,
  ephemeralResponse: false,
});
