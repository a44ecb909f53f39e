import type { ConversationItem, Model } from '@parley/core';

/** One output item of a scripted model answer. */
export type TextHarnessOutput =
  | { type: 'message'; text: string }
  /** A function call; `callId` defaults to one the harness's backend assigns. */
  | { type: 'function_call'; name: string; arguments: Record<string, unknown>; callId?: string };

/** What the backend does for one model call. */
export type TextHarnessResponse =
  /**
   * An answer: its output items in order, and the token counts the backend reports for it. A streamed call
   * delivers each message's text in more than one piece (text deltas) where the text has more than one word.
   */
  | { output: TextHarnessOutput[]; usage?: { inputTokens: number; outputTokens: number } }
  /** A failure the way the provider reports one (an HTTP error with this status and message, or its equivalent). */
  | { error: { status: number; message: string } }
  /** No answer at all: the call stays pending until it is aborted. */
  | { hang: true };

/** A call as the backend received it, translated back to the seam's words. */
export interface TextHarnessRequest {
  /** The system instructions, however the wire spells them (a field, a first system message). */
  instructions?: string;
  /** The conversation after the instructions, as items without provider ids, in order. */
  input: ConversationItem[];
  /** The names of the function tools offered. */
  tools: string[];
  /** Whether the call asked for output matching a JSON Schema. */
  outputSchema: boolean;
  /** Whether the call asked for a streamed answer. */
  streamed: boolean;
}

/**
 * How the text conformance scenarios drive one text model: script what the model answers on its backend, and read
 * back what the model sent. A fresh harness is created for every scenario and disposed after it. Every method may be
 * asynchronous (a backend behind HTTP).
 */
export interface TextModelHarness {
  /** The model under test, wired to this harness's backend. */
  readonly model: Model;
  /** Queues what the backend answers to the next calls, one response per call, in order. */
  respondWith(...responses: TextHarnessResponse[]): void | Promise<void>;
  /** Every call the backend received so far, in order. */
  requests(): TextHarnessRequest[] | Promise<TextHarnessRequest[]>;
  /** Releases the backend (servers, handlers). */
  dispose(): void | Promise<void>;
}

/** Creates a fresh {@link TextModelHarness} for each scenario. */
export type TextModelHarnessFactory = () => TextModelHarness | Promise<TextModelHarness>;
