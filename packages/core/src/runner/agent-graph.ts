import { UserError } from '../errors.js';
import type { AnyAgent } from './run-items.js';

/**
 * Every agent reachable from `root` through handoffs, by name. When two different agents share a name,
 * the one found first (breadth-first from `root`) wins.
 */
export function agentsByName<TContext>(root: AnyAgent<TContext>): Map<string, AnyAgent<TContext>> {
  const byName = new Map<string, AnyAgent<TContext>>();
  const seen = new Set<AnyAgent<TContext>>();
  const queue: AnyAgent<TContext>[] = [root];
  for (let agent = queue.shift(); agent; agent = queue.shift()) {
    if (seen.has(agent)) continue;
    seen.add(agent);
    if (!byName.has(agent.name)) byName.set(agent.name, agent);
    for (const handoff of agent.getHandoffs()) queue.push(handoff.agent);
  }
  return byName;
}

/** Finds an agent of the graph by name, or throws a UserError naming the agents it knows. */
export function findAgent<TContext>(
  graph: Map<string, AnyAgent<TContext>>,
  name: string,
): AnyAgent<TContext> {
  const agent = graph.get(name);
  if (agent) return agent;
  throw new UserError(
    `The saved run refers to agent "${name}", which is not reachable through handoffs from the agent you passed (known: ${[...graph.keys()].join(', ')}). Pass the same starting agent the run was created with.`,
    { code: 'run_state_agent_not_found' },
  );
}
