import type { Clock } from '@parley/core';
import type { PeerConnectionLike } from './peer-connection.js';

/**
 * Resolves once the peer has gathered its ICE candidates (they are then in its local description, as a call that
 * exchanges one offer and one answer needs), or after `timeoutMs`: the offer then carries what was gathered so far.
 */
export function iceGatheringDone(peer: PeerConnectionLike, clock: Clock, timeoutMs: number): Promise<void> {
  if (peer.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clock.clearTimeout(timer);
      peer.removeEventListener('icegatheringstatechange', onChange);
      resolve();
    };
    const onChange = () => {
      if (peer.iceGatheringState === 'complete') done();
    };
    const timer = clock.setTimeout(done, timeoutMs);
    peer.addEventListener('icegatheringstatechange', onChange);
  });
}
