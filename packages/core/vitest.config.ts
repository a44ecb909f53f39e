import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// @parley/mock and @parley/conformance depend on @parley/core, so core cannot list them as dependencies (turbo
// rejects the cycle). Core's own tests reach them from source through these aliases (and `paths` in
// tsconfig.json); packages/core/turbo.json makes their sources inputs of core's test task.
const mockEntry = fileURLToPath(new URL('../mock/src/index.ts', import.meta.url));
const conformanceEntry = fileURLToPath(new URL('../conformance/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: {
    conditions: ['@parley/source'],
    alias: [
      { find: /^@parley\/mock$/, replacement: mockEntry },
      { find: /^@parley\/conformance$/, replacement: conformanceEntry },
    ],
  },
  ssr: { resolve: { conditions: ['@parley/source'] } },
  // Tests run on injected clocks; the limit only bounds a hang. Importing sources on a loaded 2-core CI machine
  // can take seconds, which the 5 s default counted against tests that import inside their body.
  test: { include: ['test/**/*.test.ts'], testTimeout: 20_000 },
});
