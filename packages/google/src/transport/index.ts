/**
 * The WebSocket plumbing every realtime adapter shares (open on every runtime, bounded connect phase, keepalive,
 * listeners, close wait), as `@parley/transport` holds it. A transitional copy until that package is on main: the
 * adapter then imports it from there and this folder goes.
 */
export { closeWait } from './close-wait.js';
export { ConnectPhase, type ConnectSettle } from './connect-phase.js';
export {
  type KeepaliveOptions,
  type ResolvedKeepalive,
  resolveKeepalive,
  startKeepalive,
} from './keepalive.js';
export { detectWebSocketStyle, type Handshake, openSocket } from './open-socket.js';
export { frameText, listenToSocket, reportListenerError, upgradeStatus } from './socket-plumbing.js';
export type { SocketEventMap, WebSocketConstructor, WebSocketLike, WebSocketStyle } from './socket-types.js';
