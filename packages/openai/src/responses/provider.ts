import { type ModelProvider, UserError } from '@parley/core';
import { optionKeys } from '@parley/core/internal';
import { OpenAIResponsesModel } from './model.js';
import { CLIENT_OPTION_KEYS, type OpenAIClientOptions, resolveClientOptions } from './options.js';

/** Options of {@link OpenAIProvider}: the connection options, plus the model used when none is named. */
export interface OpenAIProviderOptions extends OpenAIClientOptions {
  /** The model for agents that name none, e.g. `gpt-4.1`. Without it every agent must name a model. */
  defaultModel?: string;
}

const PROVIDER_OPTIONS = optionKeys<OpenAIProviderOptions>('OpenAIProviderOptions', {
  ...CLIENT_OPTION_KEYS,
  defaultModel: true,
});

/**
 * A {@link ModelProvider} that resolves model names to {@link OpenAIResponsesModel}s sharing one set of
 * connection options (validated when the provider is created). Models are cached per name.
 */
export class OpenAIProvider implements ModelProvider {
  readonly #options: OpenAIProviderOptions;
  readonly #models = new Map<string, OpenAIResponsesModel>();

  constructor(options: OpenAIProviderOptions) {
    resolveClientOptions(options, PROVIDER_OPTIONS);
    if (
      options.defaultModel !== undefined &&
      (typeof options.defaultModel !== 'string' || !options.defaultModel.trim())
    ) {
      throw new UserError('defaultModel must be a non-empty model name, e.g. "gpt-4.1".', {
        code: 'invalid_option',
      });
    }
    this.#options = { ...options };
  }

  getModel(name?: string): OpenAIResponsesModel {
    const model = name ?? this.#options.defaultModel;
    if (model === undefined) {
      throw new UserError(
        'No OpenAI model named: set `model` on the agent or the run, or pass defaultModel to OpenAIProvider.',
        { code: 'invalid_option' },
      );
    }
    let instance = this.#models.get(model);
    if (!instance) {
      const { defaultModel: _unused, ...client } = this.#options;
      instance = new OpenAIResponsesModel({ ...client, model });
      this.#models.set(model, instance);
    }
    return instance;
  }
}
