import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@parley/source'] },
  ssr: { resolve: { conditions: ['@parley/source'] } },
  // Each e2e test starts real processes; on a loaded machine a cold Node start alone can take seconds.
  test: { include: ['**/*.test.ts'], testTimeout: 30_000 },
});
