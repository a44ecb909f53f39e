import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type AISdkLanguageModel, AISdkModel } from '@parley/ai-sdk';
import { UserError } from '@parley/core';
import { CliUsageError } from '../cli/errors.js';
import { aiSdkTestModel } from './ai-sdk-test-model.js';

/** The AI SDK provider packages `--model` knows by name: the package and its default provider export. */
const PROVIDER_PACKAGES: Record<string, { pkg: string; exportName: string }> = {
  openai: { pkg: '@ai-sdk/openai', exportName: 'openai' },
  anthropic: { pkg: '@ai-sdk/anthropic', exportName: 'anthropic' },
  google: { pkg: '@ai-sdk/google', exportName: 'google' },
  mistral: { pkg: '@ai-sdk/mistral', exportName: 'mistral' },
  groq: { pkg: '@ai-sdk/groq', exportName: 'groq' },
  xai: { pkg: '@ai-sdk/xai', exportName: 'xai' },
  deepseek: { pkg: '@ai-sdk/deepseek', exportName: 'deepseek' },
  cohere: { pkg: '@ai-sdk/cohere', exportName: 'cohere' },
};

const DEFAULT_OLLAMA_BASE_URL = 'http://localhost:11434/v1';

type ProviderFunction = (modelId: string) => AISdkLanguageModel;

/** Imports `pkg` from the current directory's node_modules (where the user installed it), else from the CLI's. */
async function importProvider(pkg: string, cwd: string): Promise<Record<string, unknown> | undefined> {
  for (const from of [join(cwd, 'package.json'), import.meta.url]) {
    try {
      const resolved = createRequire(from).resolve(pkg);
      return (await import(pathToFileURL(resolved).href)) as Record<string, unknown>;
    } catch {
      // Not installed there; try the next place.
    }
  }
  return undefined;
}

/**
 * The model of `--model <provider>:<model>`, through the AI SDK adapter: `test:<name>` (the AI SDK's mock model,
 * offline), `ollama:<model>` (an Ollama server, `OLLAMA_BASE_URL`, default `http://localhost:11434/v1`), or any AI SDK
 * provider package installed next to the command (`anthropic:claude-sonnet-4-5` needs `@ai-sdk/anthropic` and
 * `ANTHROPIC_API_KEY`; the provider package reads its own environment variables).
 */
export async function aiSdkChatModel(
  spec: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<{ model: AISdkModel; label: string }> {
  const colon = spec.indexOf(':');
  const provider = colon > 0 ? spec.slice(0, colon) : '';
  const modelId = colon > 0 ? spec.slice(colon + 1) : '';
  if (!provider || !modelId) {
    throw new CliUsageError(
      `--model takes <provider>:<model>, e.g. anthropic:claude-sonnet-4-5, ollama:llama3.2 or test:offline; got "${spec}".`,
    );
  }
  if (provider === 'test') {
    return {
      model: new AISdkModel(aiSdkTestModel(modelId)),
      label: `the AI SDK test model "${modelId}" (no key, no network)`,
    };
  }
  if (provider === 'ollama') {
    const baseURL = env.OLLAMA_BASE_URL || DEFAULT_OLLAMA_BASE_URL;
    const ollama = createOpenAICompatible({ name: 'ollama', baseURL });
    return {
      model: new AISdkModel(ollama.chatModel(modelId)),
      label: `Ollama ${modelId} at ${baseURL} (AI SDK)`,
    };
  }
  const known = PROVIDER_PACKAGES[provider];
  const pkg = known?.pkg ?? `@ai-sdk/${provider}`;
  const exports = await importProvider(pkg, cwd);
  if (!exports) {
    throw new UserError(
      `--model ${spec} needs the AI SDK provider package ${pkg}: install it where you run parley (npm install ${pkg}), or use ollama:<model> or test:<name>.`,
      { code: 'model_unavailable' },
    );
  }
  const create = exports[known?.exportName ?? provider];
  if (typeof create !== 'function') {
    throw new UserError(`${pkg} has no "${known?.exportName ?? provider}" export to create a model with.`, {
      code: 'model_unavailable',
    });
  }
  return {
    model: new AISdkModel((create as ProviderFunction)(modelId)),
    label: `${provider} ${modelId} (AI SDK)`,
  };
}
