import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@parley/source'] },
  ssr: { resolve: { conditions: ['@parley/source'] } },
  // Tests run on injected clocks; the limit only bounds a hang. Importing sources on a loaded 2-core CI machine
  // can take seconds, which the 5 s default counted against tests that import inside their body.
  test: { include: ['test/**/*.test.ts'], testTimeout: 20_000 },
});
