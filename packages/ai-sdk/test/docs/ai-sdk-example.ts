// The example of docs/models.md ("Any AI SDK model"), run by docs-models.test.ts with the HTTP answered by msw.
// #region ai-sdk
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { AISdkModel } from '@parley/ai-sdk';
import { Agent, run, tool } from '@parley/core';
import { z } from 'zod';

// Any AI SDK provider works the same way: anthropic('claude-sonnet-4-5'), google('gemini-2.5-flash'), …
const ollama = createOpenAICompatible({ name: 'ollama', baseURL: 'http://localhost:11434/v1' });

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, tempC: 21 }),
});

const agent = new Agent({
  name: 'Forecaster',
  instructions: 'Answer weather questions briefly.',
  tools: [getWeather],
  model: new AISdkModel(ollama.chatModel('llama3.2')),
});
const result = await run(agent, 'What is the weather in Lisbon?');
console.log(result.finalOutput);
// #endregion ai-sdk
