/**
 * `@parley/openai/protocol`: the OpenAI Realtime protocol layer, for adapters of services that speak it (such as
 * `@parley/azure`): the connection (normalizer, commands, lifecycle) over a socket the adapter opens itself, and the
 * socket helpers that open it on every runtime.
 */

// Moved to @parley/transport; re-exported here for adapters written against this entry point.
export {
  createSocket,
  detectWebSocketStyle,
  type Handshake,
  type HandshakeCredentials,
  loadWebSocketConstructor,
  openSocket,
  type ResolvedKeepalive,
  resolveKeepalive,
} from '@parley/transport';
export { checkNestedLiveOptionKeys, LIVE_SESSION_OPTION_KEYS } from './live/options.js';
export type { ConnectionSettings } from './realtime/connection.js';
export { OpenAIRealtimeConnection } from './realtime/connection.js';
export { RESERVED_UPGRADE_HEADERS } from './realtime/options.js';
