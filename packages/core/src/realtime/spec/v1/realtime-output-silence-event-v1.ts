/** The continuous output track carried silence between responses (providers with `continuousAudio`). */
export interface RealtimeOutputSilenceEventV1 {
  type: 'output_silence';
  durationMs: number;
}
