import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');

// The template files are typechecked under `strict` with this package's tests; the guide must show them as they are.
test.each(['template/my-provider.ts', 'template/my-provider.conformance.ts'])(
  'docs/writing-a-provider.md shows %s as it compiles',
  (file) => {
    expect(read('../../../docs/writing-a-provider.md')).toContain(read(file).trimEnd());
  },
);
