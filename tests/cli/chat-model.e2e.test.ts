import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inOrder, runParley } from './run-parley.js';

/** A Chat Completions server on loopback (what Ollama serves), answering every request with a streamed text. */
let server: Server;
let baseURL: string;
const bodies: Record<string, unknown>[] = [];

async function json(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return JSON.parse(text) as Record<string, unknown>;
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404).end();
      return;
    }
    bodies.push(await json(request));
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'llama3.2', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(
      chunk({ role: 'assistant', content: 'Hello from ' }) +
        chunk({ content: 'Ollama.' }) +
        chunk({}, 'stop') +
        'data: [DONE]\n\n',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('parley chat --model (through the AI SDK adapter)', () => {
  test('test:<name> chats on the AI SDK test model offline: streamed answers, tool calls, an approval', async () => {
    const stdin = ['hello', 'what about order A1001?', 'refund order A1001', 'y'].join('\n');
    const { code, stdout, stderr } = await runParley(['chat', '--model', 'test:offline'], {
      stdin: `${stdin}\n`,
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.split('\n')[0]).toBe(
      'Parley chat: a text agent on the AI SDK test model "offline" (no key, no network). /exit or end of input quits.',
    );
    const transcript = inOrder(stdout, [
      '  Assistant  I am the offline mock model',
      '  Assistant  ⚙ lookup_order({"orderId":"A1001"})\n',
      '↳ lookup_order returned {"orderId":"A1001","item":"Noise-cancelling headphones","amount":42.5,"charges":2}\n',
      '  Assistant  Order A1001 (Noise-cancelling headphones, $42.50) was charged 2 times.\n',
      'needs your approval. Approve? [y/n] y\n',
      '↳ issue_refund returned {"refundId":"R-7781"',
      '  Assistant  Done: refund R-7781 of $42.50 for order A1001 is on its way.\n',
      'Bye.',
    ]);
    expect(transcript).toEqual({ missing: [], ordered: true });
  });

  test('ollama:<model> chats with an Ollama server (OLLAMA_BASE_URL) through @ai-sdk/openai-compatible', async () => {
    const { code, stdout, stderr } = await runParley(['chat', '--model', 'ollama:llama3.2'], {
      stdin: 'hi\n',
      env: { OLLAMA_BASE_URL: baseURL },
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain(`a text agent on Ollama llama3.2 at ${baseURL} (AI SDK)`);
    expect(stdout).toContain('  Assistant  Hello from Ollama.\n');
    expect(bodies.at(-1)).toMatchObject({
      model: 'llama3.2',
      stream: true,
      messages: [{ role: 'system' }, { role: 'user', content: 'hi' }],
      tools: [{ function: { name: 'lookup_order' } }, { function: { name: 'issue_refund' } }],
    });
  });

  test('a provider whose AI SDK package is not installed names the package and exits 1', async () => {
    const { code, stdout, stderr } = await runParley(['chat', '--model', 'mistral:mistral-large-latest'], {
      stdin: 'hi\n',
    });
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toBe(
      'parley: --model mistral:mistral-large-latest needs the AI SDK provider package @ai-sdk/mistral: install it where you run parley (npm install @ai-sdk/mistral), or use ollama:<model> or test:<name>.\n',
    );
  });

  test.each([
    [['--model', 'llama3.2'], '--model takes <provider>:<model>'],
    [['--model', 'test:x', '--provider', 'openai'], 'give --provider or --model, not both'],
  ])('%j is a usage error (exit 2)', async (flags, message) => {
    const { code, stderr } = await runParley(['chat', ...flags], { stdin: 'hi\n' });
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});
