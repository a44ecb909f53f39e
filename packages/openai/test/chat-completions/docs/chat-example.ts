// The example of docs/models.md ("Chat Completions"), run by docs-models.test.ts with the HTTP answered by msw.
// #region chat-completions
import { Agent, run } from '@parley/core';
import { OpenAIChatCompletionsModel } from '@parley/openai';

const model = new OpenAIChatCompletionsModel({
  baseURL: 'http://localhost:11434/v1', // Ollama; vLLM: http://localhost:8000/v1, Groq: https://api.groq.com/openai/v1
  apiKey: 'ollama', // Ollama ignores the key; Groq, OpenRouter and OpenAI need theirs
  model: 'llama3.2',
});
const agent = new Agent({ name: 'Assistant', instructions: 'Be brief.', model });
const result = await run(agent, 'Say hello.', { stream: true });
for await (const event of result) {
  if (event.type === 'raw_model_event' && event.data.type === 'text_delta')
    process.stdout.write(event.data.delta);
}
await result.completed;
console.log();
// #endregion chat-completions
