/** Token and request counts, summed over the model calls of a run or a session. */
export interface Usage {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** A zeroed {@link Usage}. */
export function emptyUsage(): Usage {
  return { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

/** Adds `more` into `into` and returns `into`. */
export function addUsage(into: Usage, more: Partial<Usage>): Usage {
  into.requests += more.requests ?? 0;
  into.inputTokens += more.inputTokens ?? 0;
  into.outputTokens += more.outputTokens ?? 0;
  into.totalTokens += more.totalTokens ?? 0;
  return into;
}
