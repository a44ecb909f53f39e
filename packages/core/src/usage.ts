/** Token and request counts, summed over the model calls of a run or a session. */
export interface Usage {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Input tokens by kind, where the provider reports them; `cachedTokens` came from its prompt cache. */
  inputTokenDetails?: { textTokens?: number; audioTokens?: number; cachedTokens?: number };
  /** Output tokens by kind, where the provider reports them. */
  outputTokenDetails?: { textTokens?: number; audioTokens?: number };
}

/** A zeroed {@link Usage}. */
export function emptyUsage(): Usage {
  return { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

/** A copy of `usage` that shares no object with it (token details included). */
export function copyUsage(usage: Usage): Usage {
  const { inputTokenDetails, outputTokenDetails, ...totals } = usage;
  return {
    ...totals,
    ...(inputTokenDetails && { inputTokenDetails: { ...inputTokenDetails } }),
    ...(outputTokenDetails && { outputTokenDetails: { ...outputTokenDetails } }),
  };
}

function addDetails<K extends string>(
  into: Partial<Record<K, number>> | undefined,
  more: Partial<Record<K, number>> | undefined,
): Partial<Record<K, number>> | undefined {
  if (!more) return into;
  const sum: Partial<Record<K, number>> = { ...into };
  for (const key of Object.keys(more) as K[]) {
    const value = more[key];
    if (typeof value === 'number') sum[key] = (sum[key] ?? 0) + value;
  }
  return sum;
}

/** Adds `more` into `into` and returns `into`; token details are summed where either reports them. */
export function addUsage(into: Usage, more: Partial<Usage>): Usage {
  into.requests += more.requests ?? 0;
  into.inputTokens += more.inputTokens ?? 0;
  into.outputTokens += more.outputTokens ?? 0;
  into.totalTokens += more.totalTokens ?? 0;
  const input = addDetails(into.inputTokenDetails, more.inputTokenDetails);
  if (input) into.inputTokenDetails = input;
  const output = addDetails(into.outputTokenDetails, more.outputTokenDetails);
  if (output) into.outputTokenDetails = output;
  return into;
}
