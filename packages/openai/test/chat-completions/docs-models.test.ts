import { readFileSync } from 'node:fs';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { sseResponse } from '../responses/helpers.js';
import { chunksText, textChunks } from './helpers.js';

const doc = readFileSync(new URL('../../../../docs/models.md', import.meta.url), 'utf8');

/** The lines between `// #region name` and `// #endregion name` of a file, as written. */
function region(file: URL, name: string): string {
  const source = readFileSync(file, 'utf8');
  const start = source.indexOf('\n', source.indexOf(`// #region ${name}`)) + 1;
  return source.slice(start, source.indexOf(`// #endregion ${name}`)).trimEnd();
}

const bodies: Record<string, unknown>[] = [];
const server = setupServer(
  http.post('http://localhost:11434/v1/chat/completions', async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    return sseResponse(chunksText(textChunks()));
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

test('docs/models.md: the Chat Completions example runs as written (Ollama answered by msw)', async () => {
  const example = new URL('./docs/chat-example.ts', import.meta.url);
  expect(doc).toContain(region(example, 'chat-completions'));
  const written: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await import('./docs/chat-example.js');
  } finally {
    write.mockRestore();
    log.mockRestore();
  }
  expect(written.join('')).toBe('Hé 👋!');
  expect(bodies[0]).toMatchObject({
    model: 'llama3.2',
    stream: true,
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Say hello.' },
    ],
  });
});
