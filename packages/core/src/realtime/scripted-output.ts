/**
 * One output item of a scripted response: what a test harness has a realtime model produce (the conformance kit's
 * `HarnessOutput`, the Realtime simulator harness's `ScriptedOutput`). Declared here, in `@parley/core/internal`, so
 * that the conformance kit and the simulator speak one script without either depending on the other.
 */
export type ScriptedOutput =
  /**
   * An assistant message. In audio mode the model speaks it: `audioMs` milliseconds of PCM16 audio
   * (any number of chunks; the adapter's default length when omitted) with `text` as its transcript.
   * In text mode `text` arrives as text deltas.
   *
   * `transcriptDeltas: false` (audio mode): no transcript deltas arrive for it, as with output
   * transcription off or a transcript lagging behind the audio; only its audio arrives (the final
   * transcript may still come with the message's end).
   */
  | {
      type: 'message';
      text: string;
      audioMs?: number;
      transcriptDeltas?: boolean;
      /**
       * Audio mode only: hold the response in the middle of this message, once at least this many
       * milliseconds of its audio were sent, until the harness's `finishResponse()` (or a cancel).
       */
      holdAfterMs?: number;
    }
  /** A function call. `callId` defaults to one the adapter's backend assigns. */
  | { type: 'function_call'; name: string; arguments?: Record<string, unknown>; callId?: string };
