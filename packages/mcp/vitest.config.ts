import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@parley/source'] },
  ssr: { resolve: { conditions: ['@parley/source'] } },
  // The tests start real MCP servers (a child process over stdio, HTTP on loopback); the limit only bounds a hang.
  test: { include: ['test/**/*.test.ts'], testTimeout: 30_000 },
});
