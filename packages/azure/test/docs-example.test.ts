import { readFileSync } from 'node:fs';
import { codeRegion } from '@parley/conformance';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';

const doc = readFileSync(new URL('../../../docs/providers/azure.md', import.meta.url), 'utf8');

// The text agent's endpoint, answered in-process (no network).
const server = setupServer(
  http.post('https://my-resource.openai.azure.com/openai/v1/responses', async ({ request }) => {
    const body = (await request.json()) as { model: string };
    const ok = request.headers.get('api-key') === 'test-key' && body.model === 'gpt-4.1-mini';
    return HttpResponse.json({
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: body.model,
      output: [
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: ok ? 'Lisbon.' : 'wrong request', annotations: [] }],
        },
      ],
      usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
    });
  }),
);
// Loopback traffic (the simulator's WebSocket) is let through; anything else unanswered fails the test.
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request, print) => {
      if (new URL(request.url).hostname !== '127.0.0.1') print.error();
    },
  }),
);
afterAll(() => server.close());

// The example runs as users run it: the simulator paces its responses in real time (about 2 s).
test('the voice agent example in docs/providers/azure.md runs against the simulator in Azure mode', {
  timeout: 20_000,
}, async () => {
  const printed: string[] = [];
  const console = { log: (...parts: unknown[]) => printed.push(parts.join(' ')) };
  const { Agent, RealtimeSession, tool } = await import('@parley/core');
  const { AzureOpenAIRealtimeModel } = await import('@parley/azure');
  const { startRealtimeSimulator } = await import('@parley/simulator');
  const { z } = await import('zod');

  // #region voice
  // A local stand-in for Azure OpenAI: the simulator in Azure mode (GA path, api-key header).
  const simulator = await startRealtimeSimulator({ auth: { kind: 'azure', apiKeys: ['local-key'] } });
  simulator.script(
    [{ type: 'function_call', name: 'get_weather', arguments: { city: 'Lisbon' } }],
    'Sunny and 21 degrees in Lisbon.',
  );

  const model = new AzureOpenAIRealtimeModel({
    endpoint: `http://127.0.0.1:${simulator.port}`, // your https://<resource>.openai.azure.com
    deployment: 'gpt-realtime', // the name of your realtime deployment
    apiKey: 'local-key', // or tokenProvider for Microsoft Entra ID
  });
  const agent = new Agent({
    name: 'Forecaster',
    instructions: 'Answer weather questions.',
    tools: [
      tool({
        name: 'get_weather',
        description: 'The weather in a city',
        parameters: z.object({ city: z.string() }),
        execute: ({ city }) => `Sunny and 21 °C in ${city}`,
      }),
    ],
  });

  await using session = new RealtimeSession(agent, { model });
  session.on('tool_done', (event) => console.log(`tool ${event.name} → ${event.output}`));
  await session.connect();
  session.sendMessage('What is the weather in Lisbon?');
  let responses = 0;
  for await (const event of session) {
    if (event.type === 'response_done' && ++responses === 2) break; // the tool call, then the answer
  }
  const last = session.history.at(-1);
  console.log(`assistant: ${last?.type === 'message' ? last.text : ''}`);
  await session.close();
  await simulator.close();
  // #endregion voice

  expect(printed).toEqual([
    'tool get_weather → Sunny and 21 °C in Lisbon',
    'assistant: Sunny and 21 degrees in Lisbon.',
  ]);
  expect(doc).toContain(await codeRegion(import.meta.url, 'voice'));
});

test('the text agent example in docs/providers/azure.md runs as written', async () => {
  vi.stubEnv('AZURE_OPENAI_API_KEY', 'test-key');
  const printed: string[] = [];
  const console = { log: (...parts: unknown[]) => printed.push(parts.join(' ')) };
  const { Agent, run } = await import('@parley/core');
  const { AzureOpenAIResponsesModel } = await import('@parley/azure');

  // #region text
  const model = new AzureOpenAIResponsesModel({
    endpoint: 'https://my-resource.openai.azure.com',
    deployment: 'gpt-4.1-mini',
    // apiKey defaults to AZURE_OPENAI_API_KEY; or pass tokenProvider for Microsoft Entra ID
  });
  const agent = new Agent({ name: 'Geographer', instructions: 'Answer in one word.', model });
  const result = await run(agent, 'What is the capital of Portugal?');
  console.log(result.finalOutput);
  // #endregion text

  vi.unstubAllEnvs();
  expect(printed).toEqual(['Lisbon.']);
  expect(doc).toContain(await codeRegion(import.meta.url, 'text'));
});
