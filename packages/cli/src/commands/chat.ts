import { AzureOpenAIResponsesModel } from '@parley/azure';
import type { Model } from '@parley/core';
import { OpenAIResponsesModel } from '@parley/openai';
import { aiSdkChatModel } from '../chat/ai-sdk-models.js';
import { ChatMockModel } from '../chat/chat-model.js';
import { LineReader } from '../chat/line-reader.js';
import { runChat } from '../chat/run-chat.js';
import type { CliIO, CommandSpec } from '../cli/command.js';
import { CliUsageError } from '../cli/errors.js';
import { providerEnvironment } from '../providers/environment.js';

const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini';

function chatModel(provider: string, io: CliIO): { model: Model; label: string } {
  if (provider === 'openai') {
    const env = providerEnvironment('openai', io.env);
    const name = io.env.OPENAI_MODEL || DEFAULT_OPENAI_MODEL;
    const baseURL = io.env.OPENAI_BASE_URL || undefined;
    return {
      model: new OpenAIResponsesModel({
        model: name,
        apiKey: env.OPENAI_API_KEY,
        ...(baseURL && { baseURL }),
      }),
      label: `OpenAI ${name}`,
    };
  }
  if (provider === 'azure') {
    const vars = providerEnvironment('azure', io.env);
    return {
      model: new AzureOpenAIResponsesModel({
        endpoint: vars.AZURE_OPENAI_ENDPOINT,
        apiKey: vars.AZURE_OPENAI_API_KEY,
        deployment: vars.AZURE_OPENAI_DEPLOYMENT,
      }),
      label: `Azure OpenAI (deployment ${vars.AZURE_OPENAI_DEPLOYMENT})`,
    };
  }
  return { model: new ChatMockModel(), label: 'the offline mock model (no API key, no network)' };
}

/** `parley chat`: an interactive text agent (the Runner) on the terminal. */
export const chatCommand: CommandSpec = {
  name: 'chat',
  summary: 'Chat with a text agent in the terminal: streamed tokens, tool calls, approvals asked y/n',
  usage: ['chat [--provider mock|openai|azure]', 'chat --model <provider>:<model>'],
  flags: {
    provider: {
      type: 'string',
      choices: ['mock', 'openai', 'azure'],
      description:
        'The model: mock (offline, the default), openai (OPENAI_API_KEY, OPENAI_MODEL), azure (AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY, AZURE_OPENAI_DEPLOYMENT)',
    },
    model: {
      type: 'string',
      description:
        'Any AI SDK model, through @parley/ai-sdk: test:<name> (the AI SDK test model, offline), ollama:<model> (OLLAMA_BASE_URL, default http://localhost:11434/v1), or <provider>:<model> with the @ai-sdk/<provider> package installed and its key set (e.g. anthropic:claude-sonnet-4-5 with ANTHROPIC_API_KEY)',
    },
  },
  notes: [
    'Each line you type is one turn of the Runner; the conversation is remembered. The agent looks orders up and',
    'refunds them; a refund waits for your y/n. Works with piped input too: printf "refund order A1001\\ny\\n" | parley chat',
  ],
  async run(flags, io) {
    if (typeof flags.model === 'string' && typeof flags.provider === 'string') {
      throw new CliUsageError('parley chat: give --provider or --model, not both.');
    }
    const { model, label } =
      typeof flags.model === 'string'
        ? await aiSdkChatModel(flags.model, io.env, process.cwd())
        : chatModel(typeof flags.provider === 'string' ? flags.provider : 'mock', io);
    const input = new LineReader(io.stdin);
    try {
      return await runChat({
        model,
        modelLabel: label,
        out: io.out,
        err: io.err,
        input,
        interactive: io.out.isTTY && (io.stdin as { isTTY?: boolean }).isTTY === true,
      });
    } finally {
      input.close();
    }
  },
};
