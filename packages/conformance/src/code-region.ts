import { UserError } from '@parley/core';

/**
 * The code between `// #region <name>` and `// #endregion <name>` in the file at `fileUrl` (usually a test's
 * `import.meta.url`), un-indented one level: what a guide must show, so that a test proves the guide's example is
 * the code it runs. Node only (it reads the file).
 */
export async function codeRegion(fileUrl: string | URL, name: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const source = await readFile(new URL(fileUrl), 'utf8');
  const start = source.lastIndexOf(`// #region ${name}`);
  const end = source.lastIndexOf(`// #endregion ${name}`);
  if (start < 0 || end < start) {
    throw new UserError(
      `codeRegion: ${String(fileUrl)} has no "// #region ${name}" … "// #endregion ${name}" pair; add both markers.`,
      { code: 'code_region_missing' },
    );
  }
  return source
    .slice(source.indexOf('\n', start) + 1, end)
    .split('\n')
    .map((line) => line.replace(/^ {2}/, ''))
    .join('\n')
    .trimEnd();
}
