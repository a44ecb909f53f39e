import { readFileSync } from 'node:fs';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';

const doc = readFileSync(new URL('../../../docs/models.md', import.meta.url), 'utf8');

/** The lines between `// #region name` and `// #endregion name` of a file, as written. */
function region(file: URL, name: string): string {
  const source = readFileSync(file, 'utf8');
  const start = source.indexOf('\n', source.indexOf(`// #region ${name}`)) + 1;
  return source.slice(start, source.indexOf(`// #endregion ${name}`)).trimEnd();
}

const bodies: Record<string, unknown>[] = [];
const server = setupServer(
  http.post('http://localhost:11434/v1/chat/completions', async ({ request }) => {
    const body = (await request.json()) as { messages: unknown[] };
    bodies.push(body);
    const message =
      bodies.length === 1
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' },
              },
            ],
          }
        : { role: 'assistant', content: 'Sunny, 21 °C in Lisbon.' };
    return HttpResponse.json({
      id: `chatcmpl-${bodies.length}`,
      object: 'chat.completion',
      created: 1,
      model: 'llama3.2',
      choices: [{ index: 0, message, finish_reason: bodies.length === 1 ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 40, completion_tokens: 8, total_tokens: 48 },
    });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

test('docs/models.md: the AI SDK example runs as written (Ollama answered by msw)', async () => {
  const example = new URL('./docs/ai-sdk-example.ts', import.meta.url);
  expect(doc).toContain(region(example, 'ai-sdk'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await import('./docs/ai-sdk-example.js');
    expect(log).toHaveBeenCalledWith('Sunny, 21 °C in Lisbon.');
  } finally {
    log.mockRestore();
  }
  expect(bodies[1]?.messages).toContainEqual({
    role: 'tool',
    tool_call_id: 'call_1',
    content: '{"city":"Lisbon","tempC":21}',
  });
});
