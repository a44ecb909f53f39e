import { readFileSync } from 'node:fs';

/** docs/providers/openai-live.md, whose examples these tests run. */
export const liveDoc = readFileSync(
  new URL('../../../../docs/providers/openai-live.md', import.meta.url),
  'utf8',
);
