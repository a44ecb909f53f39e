// A voice agent over OpenAIRealtimeModel and a real WebSocket to the Realtime simulator on loopback.
import { Agent, RealtimeSession, tool } from '@parley/core';
import { OpenAIRealtimeModel } from '@parley/openai';
import { startRealtimeSimulator } from '@parley/simulator';
import { z } from 'zod';

const simulator = await startRealtimeSimulator();
simulator.script(
  { type: 'function_call', name: 'get_weather', arguments: { city: 'Oslo' } },
  'It is 21 degrees in Oslo.',
);
const getWeather = tool({
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `21 °C in ${city}`,
});
const tools: string[] = [];
let transcript = '';
{
  await using session = new RealtimeSession(new Agent({ name: 'Forecaster', tools: [getWeather] }), {
    model: new OpenAIRealtimeModel({ apiKey: 'sk-test', url: simulator.url }),
  });
  session.on('tool_done', (event) => tools.push(event.output));
  await session.connect();
  session.sendMessage('What is the weather in Oslo?');
  let responses = 0;
  for await (const event of session) {
    if (event.type === 'transcript_delta' && responses === 1) transcript += event.delta;
    if (event.type === 'response_done' && ++responses === 2) break;
  }
}
await simulator.close();
console.log(JSON.stringify({ tools, transcript }));
