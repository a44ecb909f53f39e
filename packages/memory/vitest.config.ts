import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@parley/source'] },
  ssr: { resolve: { conditions: ['@parley/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    // One PostgreSQL and one Redis server for the whole run, on loopback ports in temporary directories.
    globalSetup: ['test/support/servers-setup.ts'],
    // PGlite compiles its WASM on first use: seconds on an idle machine, much longer on a loaded CI one.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
