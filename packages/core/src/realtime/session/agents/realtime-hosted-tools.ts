import { Agent, type AnyAgent } from '../../../agent.js';
import { checkHostedTools } from '../../../hosted-tool.js';

/**
 * A realtime provider runs no hosted tools: `agent`, or an agent it can hand off to, that offers one is refused with
 * `HostedToolUnsupportedError` (never silently dropped).
 */
export function refuseHostedTools<TContext>(agent: AnyAgent<TContext>, provider: string): void {
  const seen = new Set<AnyAgent<TContext>>();
  const pending: AnyAgent<TContext>[] = [agent];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    checkHostedTools(next.hostedTools, provider, [], `Realtime agent "${next.name}"`);
    for (const handoff of next.handoffs) pending.push(handoff instanceof Agent ? handoff : handoff.agent);
  }
}
