import { readFileSync } from 'node:fs';

/** docs/realtime.md, whose examples these tests run. */
export const realtimeDoc = readFileSync(new URL('../../../../docs/realtime.md', import.meta.url), 'utf8');
