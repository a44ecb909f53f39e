import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

/**
 * The realtime specification is self-contained: every file of `spec/` imports only from `spec/` (it could be
 * published types-only, and a provider author reads it without the rest of core).
 */
const SPEC = fileURLToPath(new URL('../../src/realtime/spec', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

test('spec/ imports nothing from outside itself', () => {
  const outside: string[] = [];
  for (const file of files(SPEC)) {
    for (const [, from] of readFileSync(file, 'utf8').matchAll(/\bfrom\s+'([^']+)'/g)) {
      if (from === undefined) continue;
      const inside = from.startsWith('.') && resolve(dirname(file), from).startsWith(SPEC);
      if (!inside) outside.push(`${file.slice(SPEC.length + 1)}: ${from}`);
    }
  }
  expect(outside).toEqual([]);
});
