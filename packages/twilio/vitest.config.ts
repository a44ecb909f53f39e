import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@parley/source'] },
  ssr: { resolve: { conditions: ['@parley/source'] } },
  // The tests run real WebSockets on loopback in virtual time; the limit only bounds a hang.
  test: { include: ['test/**/*.test.ts'], testTimeout: 30_000 },
});
