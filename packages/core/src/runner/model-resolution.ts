import type { AnyAgent } from '../agent.js';
import { UserError } from '../errors.js';
import type { Model, ModelProvider } from '../model.js';

/** Where a run's models come from: the run options, then the Runner's config. */
export interface ModelSources {
  model?: string | Model;
  modelProvider?: ModelProvider;
}

/**
 * The model an agent runs on: its own `model` (an instance, or a name), else the run's `model`, else the
 * Runner's; names (and "no name at all") go through the model provider.
 */
export async function resolveModel<TContext>(
  agent: AnyAgent<TContext>,
  run: ModelSources,
  runner: ModelSources,
): Promise<Model> {
  const choice = agent.model ?? run.model ?? runner.model;
  if (choice !== undefined && typeof choice !== 'string') return choice;
  const provider = run.modelProvider ?? runner.modelProvider;
  if (!provider) {
    throw new UserError(
      choice === undefined
        ? `Agent "${agent.name}" has no model: set \`model\` on the agent, pass \`model\` to run(), or give the Runner a \`model\` or \`modelProvider\`.`
        : `Agent "${agent.name}" names model "${choice}", but no modelProvider was given to resolve it: pass \`modelProvider\` to run() or the Runner, or pass a Model instance.`,
      { code: 'model_not_configured' },
    );
  }
  return await provider.getModel(choice);
}
