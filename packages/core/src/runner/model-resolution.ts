import type { AnyAgent } from '../agent.js';
import { UserError } from '../errors.js';
import type { Model, ModelProvider } from '../model.js';
import { checkTextModel } from './model-check.js';
import type { ResolvedRunSettings } from './run-config.js';

/**
 * The model an agent runs on: the run's `model` (which overrides every agent's), else the agent's own
 * `model`; names (and "no name at all") go through the model provider. The model is checked before use.
 * A model instance comes back as is (a turn need not wait a microtask for it), a provider's as a promise.
 */
export function resolveModel<TContext>(
  agent: AnyAgent<TContext>,
  settings: ResolvedRunSettings<TContext>,
  streamed: boolean,
): Model | Promise<Model> {
  const choice = settings.model ?? agent.model;
  if (choice !== undefined && typeof choice !== 'string') return checkTextModel(choice, streamed);
  const provider = settings.modelProvider;
  if (!provider) {
    throw new UserError(
      choice === undefined
        ? `Agent "${agent.name}" has no model: set \`model\` on the agent, pass \`model\` to run(), or give the Runner a \`model\` or \`modelProvider\`.`
        : `Agent "${agent.name}" names model "${choice}", but no modelProvider was given to resolve it: pass \`modelProvider\` to run() or the Runner, or pass a Model instance.`,
      { code: 'model_not_configured' },
    );
  }
  return providedModel(provider, choice, streamed);
}

async function providedModel(
  provider: ModelProvider,
  name: string | undefined,
  streamed: boolean,
): Promise<Model> {
  return checkTextModel(await provider.getModel(name), streamed);
}
