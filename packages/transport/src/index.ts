/**
 * `@parley/transport`: what every realtime adapter does with its WebSocket besides speaking its protocol — open it
 * on every runtime, bound the connect phase, ping it, listen to it, wait for its close. The rules these implement are
 * in docs/writing-a-provider.md; how an adapter stands on them is in docs/architecture.md.
 */

export { closeWait } from './close-wait.js';
export { ConnectPhase, type ConnectSettle } from './connect-phase.js';
export {
  type DataChannelLike,
  type DataChannelSocketOptions,
  dataChannelSocket,
  type PeerStateLike,
} from './data-channel-socket.js';
export {
  DEFAULT_KEEPALIVE,
  KEEPALIVE_OPTION_KEYS,
  type KeepaliveOptions,
  type ResolvedKeepalive,
  resolveKeepalive,
  startKeepalive,
} from './keepalive.js';
export {
  createSocket,
  detectWebSocketStyle,
  type Handshake,
  type HandshakeCredentials,
  loadWebSocketConstructor,
  openSocket,
} from './open-socket.js';
export {
  type ConnectFailure,
  type EventSink,
  type SocketCodec,
  SocketConnection,
  type SocketConnectionSettings,
  type SocketPhase,
} from './socket-connection.js';
export {
  frameText,
  isNodeBuffer,
  listenToSocket,
  type NodeTextFrame,
  reportListenerError,
  type SocketListeners,
  upgradeStatus,
} from './socket-plumbing.js';
export type { SocketEventMap, WebSocketConstructor, WebSocketLike, WebSocketStyle } from './socket-types.js';
