import type { TestProject } from 'vitest/node';
import {
  ServerUnavailableError,
  startPostgresServer,
  startRedisServer,
  type TestServer,
} from '../../src/testing/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | undefined;
    redisUrl: string | undefined;
    /** Why a server is missing, when it is. */
    postgresSkip: string | undefined;
    redisSkip: string | undefined;
  }
}

/**
 * Starts one PostgreSQL and one Redis server for the run and stops them after it. A server that is not
 * installed skips its tests with the reason, unless PARLEY_REQUIRE_SERVERS=1 (CI), where it fails the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const required = process.env.PARLEY_REQUIRE_SERVERS === '1';
  const started: TestServer[] = [];
  const start = async (name: 'postgres' | 'redis', launch: () => Promise<TestServer>) => {
    try {
      const server = await launch();
      started.push(server);
      project.provide(`${name}Url`, server.url);
      project.provide(`${name}Skip`, undefined);
    } catch (error) {
      if (!(error instanceof ServerUnavailableError) || required) throw error;
      project.provide(`${name}Url`, undefined);
      project.provide(`${name}Skip`, error.reason);
      console.warn(`[@parley/memory] ${name} tests skipped: ${error.reason}`);
    }
  };
  try {
    await Promise.all([start('postgres', startPostgresServer), start('redis', startRedisServer)]);
  } catch (error) {
    await Promise.all(started.map((server) => server.stop()));
    throw error;
  }
  return async () => {
    await Promise.all(started.map((server) => server.stop()));
  };
}
