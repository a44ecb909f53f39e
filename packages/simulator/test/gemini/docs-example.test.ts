import { readFileSync } from 'node:fs';
import { codeRegion } from '@parley/conformance';
import { expect, test } from 'vitest';

const doc = readFileSync(new URL('../../../../docs/providers/google.md', import.meta.url), 'utf8');

// The example runs as users run it: the simulator paces its turns in real time (about 2 s).
test('the voice agent example in docs/providers/google.md runs against the Gemini simulator', {
  timeout: 30_000,
}, async () => {
  const printed: string[] = [];
  const console = { log: (...parts: unknown[]) => printed.push(parts.join(' ')) };
  const { Agent, RealtimeSession, tool } = await import('@parley/core');
  const { GeminiLiveModel } = await import('@parley/google');
  const { startGeminiSimulator } = await import('@parley/simulator');
  const { z } = await import('zod');

  // #region voice
  // A local stand-in for the Gemini Live API (it accepts the key 'test-key').
  const simulator = await startGeminiSimulator();
  simulator.respondWith(
    { outputs: [{ type: 'call', name: 'get_weather', args: { city: 'Paris' } }] },
    { outputs: [{ type: 'speech', text: 'Sunny and 21 degrees in Paris.' }] },
  );

  const model = new GeminiLiveModel({
    apiKey: 'test-key', // or leave it out: GEMINI_API_KEY / GOOGLE_API_KEY
    baseUrl: simulator.wsBaseUrl, // leave it out for wss://generativelanguage.googleapis.com
    voice: 'Puck',
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
  session.sendMessage('What is the weather in Paris?');
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
    'tool get_weather → Sunny and 21 °C in Paris',
    'assistant: Sunny and 21 degrees in Paris.',
  ]);
  expect(doc).toContain(await codeRegion(import.meta.url, 'voice'));
});
