import { codeRegion } from '@parley/conformance';
import { expect, test } from 'vitest';
import { realtimeDoc } from './realtime-doc.js';

test('the runnable example in docs/realtime.md works', async () => {
  const printed: string[] = [];
  const console = { log: (...parts: unknown[]) => printed.push(parts.join(' ')) };
  const { Agent, RealtimeSession, tool } = await import('@parley/core');
  const { MockRealtimeModel } = await import('@parley/mock');
  const { z } = await import('zod');

  // #region example
  const getWeather = tool({
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => `Sunny and 21 °C in ${city}`,
  });
  const agent = new Agent({
    name: 'Forecaster',
    instructions: 'Answer weather questions.',
    tools: [getWeather],
  });

  // The mock plays these responses in order: first a tool call, then the spoken answer.
  const model = new MockRealtimeModel().respondWith(
    { output: [{ type: 'function_call', name: 'get_weather', arguments: { city: 'Lisbon' } }] },
    { output: [{ type: 'message', text: 'It is sunny and 21 degrees in Lisbon.', audio: { ms: 800 } }] },
  );

  await using session = new RealtimeSession(agent, { model });
  let audioBytes = 0;
  session.on('audio', (event) => {
    audioBytes += event.data.byteLength; // play event.data (PCM16, 24 kHz, mono)
  });
  session.on('tool_done', (event) => console.log(`tool ${event.name} → ${event.output}`));

  await session.connect();
  session.sendMessage('What is the weather in Lisbon?');
  let responses = 0;
  for await (const event of session) {
    if (event.type === 'response_done' && ++responses === 2) break; // the tool call, then the answer
  }
  const last = session.history.at(-1);
  console.log(`assistant: ${last?.type === 'message' ? last.text : ''} (${audioBytes / 48} ms of audio)`);
  // #endregion example

  expect(printed).toEqual([
    'tool get_weather → Sunny and 21 °C in Lisbon',
    'assistant: It is sunny and 21 degrees in Lisbon. (800 ms of audio)',
  ]);
  expect(realtimeDoc).toContain(await codeRegion(import.meta.url, 'example'));
});
