import { type Model, type ModelProvider, UserError } from '@parley/core';
import { optionKeys } from '@parley/core/internal';

/** Options of {@link MockModelProvider}. */
export interface MockModelProviderOptions {
  /** Models by name, for agents that name their model (`new Agent({ model: 'fast' })`). */
  models?: Record<string, Model>;
  /** The model for agents and runs that name none. */
  defaultModel?: Model;
}

const PROVIDER_OPTIONS = optionKeys<MockModelProviderOptions>('MockModelProviderOptions', {
  models: true,
  defaultModel: true,
});

/** A {@link ModelProvider} that hands out fixed (usually mock) models by name. */
export class MockModelProvider implements ModelProvider {
  readonly #models: Record<string, Model>;
  readonly #defaultModel: Model | undefined;

  constructor(options: MockModelProviderOptions = {}) {
    PROVIDER_OPTIONS.check(options);
    this.#models = { ...options.models };
    this.#defaultModel = options.defaultModel;
  }

  /** The model registered under `name`, or the default model when no name is given. */
  getModel(name?: string): Model {
    if (name === undefined) {
      if (this.#defaultModel) return this.#defaultModel;
      throw new UserError('MockModelProvider has no default model: pass `defaultModel`, or name a model.', {
        code: 'model_not_found',
      });
    }
    const model = this.#models[name];
    if (model) return model;
    const known = Object.keys(this.#models);
    throw new UserError(
      `MockModelProvider has no model named "${name}". Known: ${known.length ? known.join(', ') : '(none)'}.`,
      { code: 'model_not_found' },
    );
  }
}
