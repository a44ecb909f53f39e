/**
 * Usage the provider reports for the session as a whole rather than per response: audio billed so far, in
 * seconds (cumulative), and how full the model's context is (0–1), when it says.
 */
export interface RealtimeUsageUpdatedEventV1 {
  type: 'usage_updated';
  audioSeconds: number;
  contextWindowRatio?: number;
}
