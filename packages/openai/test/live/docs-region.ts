import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** docs/providers/openai-live.md, whose examples these tests run. */
export const liveDoc = readFileSync(
  fileURLToPath(new URL('../../../../docs/providers/openai-live.md', import.meta.url)),
  'utf8',
);

/** The code between `// #region <name>` and `// #endregion <name>` in the test file, un-indented one level. */
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
