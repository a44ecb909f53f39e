import { Agent, type AnyAgent } from '../../../agent.js';
import { checkHostedTools } from '../../../hosted-tool.js';
import type { RealtimeHostedTool, RealtimeModel } from '../../seam.js';

/**
 * A realtime provider runs only the hosted tool kinds it declares (`capabilities.hostedTools`): `agent`, or an agent
 * it can hand off to, that offers another is refused with `HostedToolUnsupportedError` (never silently dropped).
 */
export function checkRealtimeHostedTools<TContext>(
  agent: AnyAgent<TContext>,
  model: Pick<RealtimeModel, 'provider' | 'capabilities'>,
): void {
  const seen = new Set<AnyAgent<TContext>>();
  const pending: AnyAgent<TContext>[] = [agent];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    checkHostedTools(
      next.hostedTools,
      model.provider,
      model.capabilities.hostedTools,
      `Realtime agent "${next.name}"`,
    );
    for (const handoff of next.handoffs) pending.push(handoff instanceof Agent ? handoff : handoff.agent);
  }
}

/** The agent's hosted tools as the seam takes them (the kinds {@link checkRealtimeHostedTools} let through). */
export function realtimeHostedTools<TContext>(agent: AnyAgent<TContext>): RealtimeHostedTool[] {
  const tools: RealtimeHostedTool[] = [];
  for (const tool of agent.hostedTools) {
    if (tool.kind !== 'mcp') continue;
    tools.push({
      kind: 'mcp',
      server: tool.server,
      requireApproval: tool.requireApproval ?? 'always',
      ...(tool.url !== undefined && { url: tool.url }),
      ...(tool.allowedTools !== undefined && { allowedTools: [...tool.allowedTools] }),
      ...(tool.headers !== undefined && { headers: { ...tool.headers } }),
      ...(tool.providerData !== undefined && { providerData: { ...tool.providerData } }),
    });
  }
  return tools;
}
