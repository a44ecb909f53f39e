import {
  PCM16_BYTES_PER_MS,
  type RealtimeCommand,
  type RealtimeItem,
  type RealtimeResponseStatus,
  UserError,
} from '@parley/core';
import { errorText } from '@parley/core/internal';
import { DEFAULT_AUDIO_CHUNK_MS, SPOKEN_MS_PER_CHAR } from '../constants.js';

/** What an `expect_input` step checks: what the session has sent on this connection so far. */
export interface MockReceivedInput {
  /** The provider's conversation (what the model would remember). */
  conversation: readonly RealtimeItem[];
  /** Every command received on this connection, in order. */
  commands: readonly RealtimeCommand[];
}

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
      /** The message's item id (default: the next generated one), e.g. to announce the item yourself first. */
      itemId?: string;
      /**
       * Announce the item (`item_added`, empty and `in_progress`) before `message_started` links it to the
       * response, as a service may for an out-of-band response too.
       */
      announceEarly?: boolean;
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
      /** Announce the item (`item_added`) before the `function_call` event links it to the response. */
      announceEarly?: boolean;
    }
  /**
   * Assert what the session sent before the model answers (put it first): `userText` is the text (or
   * transcript) of the latest user message; `check` returns `false` (or throws) when the input is wrong.
   * A failed expectation fails the response with a `mock_expectation_failed` error, and `assertComplete()`
   * throws it.
   */
  | {
      type: 'expect_input';
      userText?: string;
      check?: (input: MockReceivedInput) => boolean | undefined;
      /** Names the expectation in the failure message. */
      description?: string;
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

/** A script, or a plain string for a one-message response. */
export type MockResponseInput = MockResponseScript | string;

/**
 * Normalizes {@link MockResponseInput} and checks it. Without `compound` (the `compoundResponses` capability off) a
 * response is one message, or function calls that end it (after a message or not).
 */
export function toScript(input: MockResponseInput, options: { compound: boolean }): MockResponseScript {
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
    if (step.type === 'expect_input' && step.userText === undefined && typeof step.check !== 'function') {
      throw new UserError('An expect_input step needs userText or a check function.');
    }
  }
  if (!options.compound) checkSimple(script.output);
  return script;
}

/** A deterministic, non-silent PCM16 pattern (so tests can see bytes pass through untouched). */
export function mockPcm16(ms: number, seed = 0, bytesPerMs = PCM16_BYTES_PER_MS): Uint8Array {
  const bytes = new Uint8Array(Math.max(0, Math.floor(ms)) * bytesPerMs);
  for (let i = 0; i < bytes.length; i += 2) {
    const sample = (((i / 2 + seed) % 200) - 100) * 100;
    bytes[i] = sample & 0xff;
    bytes[i + 1] = (sample >> 8) & 0xff;
  }
  return bytes;
}

/** The audio chunks of a message step. */
export function audioChunks(text: string, audio: MockAudio | undefined, bytesPerMs: number): Uint8Array[] {
  if (Array.isArray(audio)) return audio.map((chunk) => chunk);
  const spec = audio as { ms: number; chunkMs?: number } | undefined;
  const totalMs = spec?.ms ?? Math.max(100, text.length * SPOKEN_MS_PER_CHAR);
  const chunkMs = Math.max(1, spec?.chunkMs ?? DEFAULT_AUDIO_CHUNK_MS);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < totalMs; at += chunkMs)
    chunks.push(mockPcm16(Math.min(chunkMs, totalMs - at), at, bytesPerMs));
  return chunks;
}

/** Splits text into word-sized deltas that join back to the text. */
export function textDeltas(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function userTextOf(item: RealtimeItem): string | undefined {
  if (item.type !== 'message' || item.role !== 'user') return undefined;
  return item.content.map((part) => (part.type === 'text' ? part.text : (part.transcript ?? ''))).join('');
}

/** Why an `expect_input` step is not met by `input`, or `undefined` when it is. */
export function unmetExpectation(
  step: Extract<MockResponseStep, { type: 'expect_input' }>,
  input: MockReceivedInput,
): string | undefined {
  const name = step.description ? ` (${step.description})` : '';
  if (step.userText !== undefined) {
    const latest = input.conversation
      .map(userTextOf)
      .filter((text) => text !== undefined)
      .at(-1);
    if (latest !== step.userText) {
      return `expected the latest user message${name} to be ${JSON.stringify(step.userText)}, but it is ${latest === undefined ? 'missing' : JSON.stringify(latest)}`;
    }
  }
  if (step.check) {
    try {
      if (step.check(input) === false) return `the input check${name} returned false`;
    } catch (error) {
      return `the input check${name} threw: ${errorText(error)}`;
    }
  }
  return undefined;
}

/** Refuses a script only a provider with `compoundResponses` could play. */
function checkSimple(output: readonly MockResponseStep[]): void {
  const messages = output.filter((step) => step.type === 'message').length;
  const firstCall = output.findIndex((step) => step.type === 'function_call');
  const afterCalls = firstCall >= 0 && output.slice(firstCall).some((step) => step.type !== 'function_call');
  if (messages > 1 || afterCalls) {
    throw new UserError(
      'This mock has compoundResponses off: a response is one message, or function calls that end it (no second ' +
        'message, nothing after its calls). Switch the capability on to script one.',
    );
  }
}
