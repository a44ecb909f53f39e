import type { LanguageModelV3, LanguageModelV4 } from '@ai-sdk/provider';
import { UserError } from '@parley/core';
import { UnsupportedSpecificationVersionError } from './errors.js';

/** A language model of an AI SDK provider specification version {@link AISdkModel} drives. */
export type AISdkLanguageModel = LanguageModelV4 | LanguageModelV3;

/**
 * The AI SDK provider specification versions accepted: `v4` (AI SDK 7, `@ai-sdk/provider` 4.x) and `v3` (AI SDK 6,
 * `@ai-sdk/provider` 3.x). Parley uses only the parts both versions share.
 */
export const SUPPORTED_SPECIFICATION_VERSIONS = ['v4', 'v3'] as const;

/** `model` as a language model this package drives, or a typed error that says what to do. */
export function checkLanguageModel(model: unknown): AISdkLanguageModel {
  if (typeof model !== 'object' || model === null) {
    throw new UserError(
      `AISdkModel needs an AI SDK language model, e.g. new AISdkModel(anthropic('claude-sonnet-4-5')); got ${String(model)}.`,
      { code: 'invalid_option' },
    );
  }
  const version: unknown = (model as { specificationVersion?: unknown }).specificationVersion;
  if (!SUPPORTED_SPECIFICATION_VERSIONS.includes(version as 'v3' | 'v4')) {
    const provider = (model as { provider?: unknown }).provider;
    const name = typeof provider === 'string' ? `The ${provider} model` : 'The model';
    throw new UnsupportedSpecificationVersionError(
      version,
      `${name} implements AI SDK provider specification ${JSON.stringify(version)}; AISdkModel accepts ${SUPPORTED_SPECIFICATION_VERSIONS.map((v) => `"${v}"`).join(' and ')}. ` +
        'Install a provider package built on @ai-sdk/provider 3.x or 4.x (AI SDK 6 or 7).',
    );
  }
  const candidate = model as Partial<LanguageModelV4>;
  if (typeof candidate.doGenerate !== 'function' || typeof candidate.doStream !== 'function') {
    throw new UserError(
      'The AI SDK language model has no doGenerate/doStream methods; pass a provider model.',
      {
        code: 'invalid_option',
      },
    );
  }
  return model as AISdkLanguageModel;
}
