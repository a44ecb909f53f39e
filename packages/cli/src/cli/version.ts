import { createRequire } from 'node:module';

/** The version of @parley/cli (src/cli and dist/cli are both two folders below the package). */
export function cliVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('../../package.json') as { version: string }).version;
}
