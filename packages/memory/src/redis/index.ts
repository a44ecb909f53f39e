export { openRedisStore, RedisStore, type RedisStoreOptions } from './redis-store.js';
