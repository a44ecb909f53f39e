import type { AnyAgent } from '../agent.js';
import { UserError } from '../errors.js';

/** Marks a name that two different agents of the graph share. */
const AMBIGUOUS = Symbol('ambiguous');

/** Agents by name; a name two different agents share maps to {@link AMBIGUOUS}. */
export type AgentGraph<TContext> = Map<string, AnyAgent<TContext> | typeof AMBIGUOUS>;

/** Every agent reachable from `root` through handoffs, by name. */
export function agentsByName<TContext>(root: AnyAgent<TContext>): AgentGraph<TContext> {
  const byName: AgentGraph<TContext> = new Map();
  const seen = new Set<AnyAgent<TContext>>();
  const queue: AnyAgent<TContext>[] = [root];
  for (let agent = queue.shift(); agent; agent = queue.shift()) {
    if (seen.has(agent)) continue;
    seen.add(agent);
    const known = byName.get(agent.name);
    byName.set(agent.name, known === undefined || known === agent ? agent : AMBIGUOUS);
    for (const handoff of agent.getHandoffs()) queue.push(handoff.agent);
  }
  return byName;
}

/** Finds an agent of the graph by name, or throws a UserError naming the agents it knows. */
export function findAgent<TContext>(graph: AgentGraph<TContext>, name: string): AnyAgent<TContext> {
  const agent = graph.get(name);
  if (agent === AMBIGUOUS) {
    throw new UserError(
      `The saved run refers to agent "${name}", but two different agents with that name are reachable from the starting agent. Give them distinct names.`,
      { code: 'run_state_agent_ambiguous' },
    );
  }
  if (agent) return agent;
  throw new UserError(
    `The saved run refers to agent "${name}", which is not reachable through handoffs from the agent you passed (known: ${[...graph.keys()].join(', ')}). Pass the same starting agent the run was created with.`,
    { code: 'run_state_agent_not_found' },
  );
}
