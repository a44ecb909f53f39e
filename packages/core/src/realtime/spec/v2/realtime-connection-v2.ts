import type { RealtimeConnectionV1 } from '../v1/realtime-connection-v1.js';
import type { RealtimeCommandV2 } from './realtime-command-v2.js';
import type { RealtimeEventV2 } from './realtime-event-v2.js';

/** One live connection: version 1's contract, speaking version 2's commands and events. */
export interface RealtimeConnectionV2 extends Omit<RealtimeConnectionV1, 'send' | 'onEvent'> {
  send(command: RealtimeCommandV2): void;
  /** Subscribes to events; returns the function that unsubscribes. */
  onEvent(listener: (event: RealtimeEventV2) => void): () => void;
}
