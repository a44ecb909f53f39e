import type { LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider';
import { convertArrayToReadableStream } from 'ai/test';

/** Usage the way providers report it: `input` and `output` totals, `cached` of the input read from a cache. */
export function usage(input: number, output: number, cached?: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: input, noCache: undefined, cacheRead: cached, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

/** A stream result made of `parts`. */
export function streamOf(parts: LanguageModelV4StreamPart[], headers: Record<string, string> = {}) {
  return { stream: convertArrayToReadableStream(parts), response: { headers } };
}

/** The parts of a streamed text answer, `deltas` one per part, then `finish`. */
export function textParts(deltas: string[], id = 'resp_1'): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id, modelId: 'mock-model' },
    { type: 'text-start', id: 't1' },
    ...deltas.map((delta) => ({ type: 'text-delta' as const, id: 't1', delta })),
    { type: 'text-end', id: 't1' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(10, 4) },
  ];
}

/** Collects every value of an async iterable. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

/** Lets promise callbacks and I/O run until `condition` holds (no wall-clock waiting). */
export async function until(condition: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`Timed out waiting for ${what}`);
}
