import { PCM16_BYTES_PER_MS, type RealtimeResponseStatus, UserError } from '@parley/core';

/** Assistant audio for a scripted message: a length (generated PCM16), or exact chunks. */
export type MockAudio = { ms: number; chunkMs?: number } | readonly Uint8Array[];

/** One step of a scripted response, played in order. */
export type MockResponseStep =
  /**
   * An assistant message. In audio mode (the session asked for audio and `audioOutput` is on) it is
   * spoken: audio chunks interleaved with transcript deltas of `text`; otherwise `text` arrives as text
   * deltas. `audio` defaults to 20 ms per character (at least 100 ms), in 100 ms chunks.
   */
  | {
      type: 'message';
      text?: string;
      audio?: MockAudio;
      /** Pause after this many audio chunks (until `resume()`), e.g. to interrupt mid-message. */
      pauseAfterChunks?: number;
      /**
       * `false`: no transcript deltas (output transcription off, or a transcript lagging behind the
       * audio); the transcript arrives only with `transcript_done`. Default `true`.
       */
      transcriptDeltas?: boolean;
    }
  /** A function call; `arguments` as JSON text or an object. */
  | {
      type: 'function_call';
      name: string;
      arguments?: string | Record<string, unknown>;
      callId?: string;
      /** Emit the call without its `responseId`, like providers that give none. */
      withoutResponseId?: boolean;
    }
  /** Hold the response here until `connection.resume()`; a trailing pause keeps it active. */
  | { type: 'pause' }
  /** Wait this long on the model's clock (needs `clock` in the model options). */
  | { type: 'delay'; ms: number };

/** What the model does for one response. */
export interface MockResponseScript {
  output: MockResponseStep[];
  /** How the response ends when it is not cancelled. Default `completed`. */
  status?: Exclude<RealtimeResponseStatus, 'cancelled'>;
  /** Token usage reported on `response_done`. */
  usage?: { inputTokens: number; outputTokens: number };
}

/** A script, or a plain string for a one-message reply. */
export type MockResponseInput = MockResponseScript | string;

/** Normalizes {@link MockResponseInput} and checks it. */
export function toScript(input: MockResponseInput): MockResponseScript {
  const script = typeof input === 'string' ? { output: [{ type: 'message' as const, text: input }] } : input;
  if (!script || !Array.isArray(script.output)) {
    throw new UserError(
      'A mock response script needs an `output` list, e.g. { output: [{ type: "message", text: "Hi" }] }.',
    );
  }
  for (const step of script.output) {
    if (step.type === 'delay' && !(step.ms >= 0)) throw new UserError('A delay step needs ms >= 0.');
    if (step.type === 'function_call' && !step.name)
      throw new UserError('A function_call step needs a name.');
  }
  return script;
}

/** A deterministic, non-silent PCM16 pattern (so tests can see bytes pass through untouched). */
export function mockPcm16(ms: number, seed = 0): Uint8Array {
  const bytes = new Uint8Array(Math.max(0, Math.floor(ms)) * PCM16_BYTES_PER_MS);
  for (let i = 0; i < bytes.length; i += 2) {
    const sample = (((i / 2 + seed) % 200) - 100) * 100;
    bytes[i] = sample & 0xff;
    bytes[i + 1] = (sample >> 8) & 0xff;
  }
  return bytes;
}

/** The audio chunks of a message step. */
export function audioChunks(text: string, audio: MockAudio | undefined): Uint8Array[] {
  if (Array.isArray(audio)) return audio.map((chunk) => chunk);
  const spec = audio as { ms: number; chunkMs?: number } | undefined;
  const totalMs = spec?.ms ?? Math.max(100, text.length * 20);
  const chunkMs = Math.max(1, spec?.chunkMs ?? 100);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < totalMs; at += chunkMs) chunks.push(mockPcm16(Math.min(chunkMs, totalMs - at), at));
  return chunks;
}

/** Splits text into word-sized deltas that join back to the text. */
export function textDeltas(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}
