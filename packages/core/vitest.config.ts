import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// @parley/mock depends on @parley/core, so core cannot list it as a dependency (turbo rejects the cycle).
// Core's own tests reach the mock from source through this alias (and `paths` in tsconfig.json).
const mockEntry = fileURLToPath(new URL('../mock/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: { conditions: ['@parley/source'], alias: [{ find: /^@parley\/mock$/, replacement: mockEntry }] },
  ssr: { resolve: { conditions: ['@parley/source'] } },
  test: { include: ['test/**/*.test.ts'] },
});
