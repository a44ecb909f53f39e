export { describeStoreConformance, type StoreConformanceOptions } from './conformance.js';
export {
  freePort,
  ServerUnavailableError,
  startPostgresServer,
  startRedisServer,
  type TestServer,
} from './servers.js';
