import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** docs/realtime.md, whose examples these tests run. */
export const realtimeDoc = readFileSync(
  fileURLToPath(new URL('../../../../docs/realtime.md', import.meta.url)),
  'utf8',
);

/**
 * The code between `// #region <name>` and `// #endregion <name>` in the test file at `testFileUrl`,
 * un-indented one level, as it must appear in docs/realtime.md.
 */
export function regionCode(testFileUrl: string, name: string): string {
  const source = readFileSync(fileURLToPath(testFileUrl), 'utf8');
  const start = source.lastIndexOf(`// #region ${name}`);
  const end = source.lastIndexOf(`// #endregion ${name}`);
  return source
    .slice(source.indexOf('\n', start) + 1, end)
    .split('\n')
    .map((line) => line.replace(/^ {2}/, ''))
    .join('\n')
    .trimEnd();
}
