import { tool } from '@parley/core';
import { z } from 'zod';

/** The session tests' shared tool: `lookup({ q })` answers `found <q>`. */
export const lookup = tool({
  name: 'lookup',
  description: 'Looks something up',
  parameters: z.object({ q: z.string() }),
  execute: ({ q }) => `found ${q}`,
});
