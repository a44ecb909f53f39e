import { Agent, tool } from '@parley/core';
import { z } from 'zod';

// Imports nothing but @parley/core and zod, so the OpenAI adapter's tests can share these.

/** `weather({ city })` answers `sunny in <city>`. */
export const weather = tool({
  name: 'weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny in ${city}`,
});

/** An agent with {@link weather} as its only tool. */
export const forecaster = new Agent({
  name: 'Forecaster',
  instructions: 'Tell the weather.',
  tools: [weather],
});

/** `book({ at })` answers `booked for <at>` and pushes each `at` it runs with to `runs`. */
export function bookingTool(runs: string[]) {
  return tool({
    name: 'book',
    description: 'Books a table',
    parameters: z.object({ at: z.string() }),
    execute: ({ at }) => {
      runs.push(at);
      return `booked for ${at}`;
    },
  });
}
